! fsimwrite: examples/simwrite.c in Fortran, the paper's use case from
! the side that computes it.  The n x n x n field u goes into a segment
! (a 1-D one: the header keeps two dimensions at most) and its shape
! into the ASCII file beside the reference line, "dims 50 50 50"
! (format-spec.md 2.7), as the paper's programs kept it:
!
!   # simdat: velocity field written by fsimwrite
!   dims 50 50 50
!   time 0.25
!   u shmids 402 simdat-u
!   units m/s
!
! The bytes are simwrite's: u(k, j, i) is the C program's u[i][j][k]
! (Fortran's first index runs fastest), so simread, numpy and R read
! either writer's file alike.  usage: fsimwrite [n [name]]
program fsimwrite
  use, intrinsic :: iso_fortran_env, only: real64
  use shmids
  implicit none
  type(shmids_segment) :: seg
  real(real64), pointer :: flat(:), u(:,:,:)
  character(len=64) :: arg, name
  integer :: n, i, j, k

  n = 50
  name = 'simdat-u'
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) call get_command_argument(2, name)

  call shmids_create(seg, trim(name), flat, n**3)
  u(1:n, 1:n, 1:n) => flat             ! the same memory, three indices
  do i = 1, n
    do j = 1, n
      do k = 1, n
        u(k, j, i) = sin(0.1_real64 * (i - 1)) * cos(0.2_real64 * (j - 1)) &
            + 0.001_real64 * (k - 1)
      end do
    end do
  end do
  call shmids_seal(seg)

  print '(a)', '# simdat: velocity field written by fsimwrite'
  print '(a, 3(1x, i0))', 'dims', n, n, n
  print '(a)', 'time 0.25'
  print '(a)', 'u shmids ' // shmids_label(seg)
  print '(a)', 'units m/s'
  call shmids_close(seg)
end program fsimwrite
