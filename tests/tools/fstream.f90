! fstream: the Fortran side of tests/fortran-stream.bats (format-spec.md
! section 10, 5.1), over the module's stream calls.
!
!   fstream write NAME COUNT   a stream of 4 slots; COUNT messages, the
!                              3 x 4 real64 matrix a(i, j) = k + i + 10 j
!                              of message k; its label first, then each
!                              message's reference line, "u shmids L S"
!   fstream read LABEL         every message as a real64 matrix in
!                              place: "seq rows cols transposed last
!                              sum", then "end"
!   fstream wrongtype LABEL    the first message as int32: the stat and
!                              the message, then "end"
program fstream
  use, intrinsic :: iso_fortran_env, only: real64, int32, int64
  use shmids
  implicit none
  character(len=256) :: what, arg, count
  type(shmids_stream) :: st
  real(real64), pointer :: a(:,:)
  integer(int32), pointer :: b(:)
  real(real64) :: m(3, 4)
  integer(int64) :: seq
  logical :: more, tr
  integer :: k, n, i, j, st_
  character(len=200) :: msg

  call get_command_argument(1, what)
  call get_command_argument(2, arg)
  select case (trim(what))
  case ('write')
    call get_command_argument(3, count)
    read (count, *) n
    call shmids_stream_create(st, trim(arg), 4, 8 * 12)
    print '(a)', shmids_stream_label(st)
    do k = 0, n - 1
      do j = 1, 4
        do i = 1, 3
          m(i, j) = k + i + 10 * j
        end do
      end do
      call shmids_publish(st, m, seq)
      print '(a, i0)', 'u shmids ' // shmids_stream_label(st) // ' ', seq
      flush (6)
    end do
    call shmids_stream_close(st)
  case ('read')
    call shmids_follow(st, trim(arg))
    do
      call shmids_next(st, a, more, seq, transposed=tr)
      if (.not. more) exit
      print '(i0, 1x, i0, 1x, i0, 1x, l1, 2(1x, f0.1))', seq, size(a, 1), &
          size(a, 2), tr, a(size(a, 1), size(a, 2)), sum(a)
    end do
    print '(a)', 'end'
    call shmids_stream_close(st)
  case ('wrongtype')
    call shmids_follow(st, trim(arg))
    msg = ''
    call shmids_next(st, b, more, stat=st_, errmsg=msg)
    print '(i0, 1x, l1, 1x, a)', st_, more, trim(msg)
    call shmids_stream_close(st)
    print '(a)', 'end'
  case default
    error stop 'usage: fstream write NAME COUNT | read LABEL | wrongtype LABEL'
  end select
end program fstream
