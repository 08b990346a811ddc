! fwriter: the writer of Grosse's Table 1 pipeline (bench/table1) in
! Fortran, three ways a Fortran program hands n doubles x(i) = (i-1)/2
! to the next program (bench/fortran.sh; the reader is reader.c):
!
!   fwriter shm N      a segment through the module; stdout: "x shmids LABEL"
!   fwriter text N     formatted, one value a line: write(u, '(ES25.17)')
!   fwriter stream N   unformatted stream I/O, the bytes of x
!
! Its own time, from the start of its work to after the hand-over's
! last write (or the close), goes to stderr as "w SECONDS".  Segments
! are named $BENCH_PREFIX"fx".
program fwriter
  use, intrinsic :: iso_fortran_env, only: real64, int64, error_unit
  use shmids
  implicit none
  type(shmids_segment) :: seg
  real(real64), pointer :: x(:)
  real(real64), allocatable, target :: buf(:)
  character(len=16) :: mode
  character(len=64) :: arg, prefix
  integer(int64) :: t0, t1, rate
  integer :: n, i, u

  call get_command_argument(1, mode)
  call get_command_argument(2, arg)
  read (arg, *) n
  call get_environment_variable('BENCH_PREFIX', prefix)
  call system_clock(t0, rate)
  select case (trim(mode))
  case ('shm')
    call shmids_create(seg, trim(prefix) // 'fx', x, n)
    do i = 1, n
      x(i) = (i - 1) * 0.5_real64
    end do
    call shmids_seal(seg)
    print '(a)', 'x shmids ' // shmids_label(seg)
    call shmids_close(seg)
  case ('text')
    allocate(buf(n))
    do i = 1, n
      buf(i) = (i - 1) * 0.5_real64
    end do
    open (newunit=u, file='/dev/stdout', action='write', form='formatted')
    write (u, '(ES25.17)') buf
    close (u)
  case ('stream')
    allocate(buf(n))
    do i = 1, n
      buf(i) = (i - 1) * 0.5_real64
    end do
    open (newunit=u, file='/dev/stdout', action='write', &
        access='stream', form='unformatted')
    write (u) buf
    close (u)
  case default
    error stop 'usage: fwriter shm|text|stream n'
  end select
  call system_clock(t1)
  write (error_unit, '(a, f0.6)') 'w ', real(t1 - t0, real64) / rate
end program fwriter
