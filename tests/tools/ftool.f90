! ftool: the Fortran side of tests/fortran.bats, through the module
! shmids alone.  Element (i, j) of a rows x cols matrix (row i, column
! j, from 1; a 1-D array is one column) is f(k), k = (i-1)*cols + (j-1):
!   f64 (k+1)/3, f32 (k+1)/3 in real32, i64 k*1000003 - 2**40, i32 k*7 - 1000
! so that a checker (numpy) computes the same values independently.
!
!   ftool write KIND RANK NAME ROWS [COLS]   print the label, sealed
!   ftool read KIND RANK LABEL [TIMEOUT]     print "rows cols T|F", then
!                                            each row's values, a line each
!   ftool hang KIND NAME N                   fill half, print the label,
!                                            then wait to be killed
!   ftool open LABEL [stat]                  open as f64 rank 1; with stat,
!                                            print stat and errmsg
!   ftool remove LABEL                       remove it
!   ftool paper NAME NBYTES                  shm_create, fill "abc...",
!                                            shm_close; print the label
!   ftool dtext                              an array "x" of 200 values
!                                            written (D25.17), a line
!                                            "# rows", 30 rows (3D25.17)
!   ftool end HOW NAME N                     make an f64 a(N), print the
!                                            label, never seal it, end
!                                            by HOW: "stop" (the end of
!                                            the program), "errorstop"
!                                            (ERROR STOP), "fail" (the
!                                            module's error stop)
program ftool
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32, int64, &
      error_unit
  use shmids
  implicit none
  character(len=256) :: cmd, kind, arg
  integer :: rank, rows, cols

  call get_command_argument(1, cmd)
  select case (trim(cmd))
  case ('write')
    call get_command_argument(2, kind)
    rank = iarg(3)
    call get_command_argument(4, arg)
    rows = iarg(5)
    cols = 1
    if (rank == 2) cols = iarg(6)
    call write(trim(kind), rank, trim(arg), rows, cols, .false.)
  case ('hang')
    call get_command_argument(2, kind)
    call get_command_argument(3, arg)
    call write(trim(kind), 1, trim(arg), iarg(4), 1, .true.)
  case ('read')
    call get_command_argument(2, kind)
    rank = iarg(3)
    call get_command_argument(4, arg)
    call read(trim(kind), rank, trim(arg))
  case ('open')
    call open_one()
  case ('remove')
    call get_command_argument(2, arg)
    call shmids_remove(trim(arg))
  case ('paper')
    call paper()
  case ('dtext')
    call dtext()
  case ('end')
    call get_command_argument(2, kind)
    call get_command_argument(3, arg)
    call ending(trim(kind), trim(arg), iarg(4))
  case default
    write (error_unit, '(a)') 'usage: ftool write|read|hang|open|remove|paper ...'
    error stop 2
  end select

contains

  integer function iarg(n)
    integer, intent(in) :: n
    character(len=64) :: s

    call get_command_argument(n, s)
    read (s, *) iarg
  end function iarg

  real(real64) function timeout()
    character(len=64) :: s

    timeout = 0
    call get_command_argument(5, s)
    if (len_trim(s) > 0) read (s, *) timeout
  end function timeout

  subroutine write(kind, rank, name, rows, cols, hang)
    character(len=*), intent(in) :: kind, name
    integer, intent(in) :: rank, rows, cols
    logical, intent(in) :: hang
    type(shmids_segment) :: seg
    real(real64), pointer :: d1(:), d2(:,:)
    real(real32), pointer :: f1(:), f2(:,:)
    integer(int64), pointer :: l1(:), l2(:,:)
    integer(int32), pointer :: i1(:), i2(:,:)
    integer :: i, j, n, k

    n = rows
    if (hang) n = rows / 2
    select case (kind)
    case ('f64')
      if (rank == 1) then
        call shmids_create(seg, name, d1, rows)
        do i = 1, n
          d1(i) = real(i, real64) / 3
        end do
      else
        call shmids_create(seg, name, d2, rows, cols)
        do j = 1, cols
          do i = 1, rows
            k = (i - 1) * cols + (j - 1)
            d2(i, j) = real(k + 1, real64) / 3
          end do
        end do
      end if
    case ('f32')
      if (rank == 1) then
        call shmids_create(seg, name, f1, rows)
        do i = 1, n
          f1(i) = real(i, real32) / 3
        end do
      else
        call shmids_create(seg, name, f2, rows, cols)
        do j = 1, cols
          do i = 1, rows
            k = (i - 1) * cols + (j - 1)
            f2(i, j) = real(k + 1, real32) / 3
          end do
        end do
      end if
    case ('i64')
      if (rank == 1) then
        call shmids_create(seg, name, l1, rows)
        do i = 1, n
          l1(i) = int(i - 1, int64) * 1000003 - 2_int64**40
        end do
      else
        call shmids_create(seg, name, l2, rows, cols)
        do j = 1, cols
          do i = 1, rows
            k = (i - 1) * cols + (j - 1)
            l2(i, j) = int(k, int64) * 1000003 - 2_int64**40
          end do
        end do
      end if
    case ('i32')
      if (rank == 1) then
        call shmids_create(seg, name, i1, rows)
        do i = 1, n
          i1(i) = (i - 1) * 7 - 1000
        end do
      else
        call shmids_create(seg, name, i2, rows, cols)
        do j = 1, cols
          do i = 1, rows
            k = (i - 1) * cols + (j - 1)
            i2(i, j) = k * 7 - 1000
          end do
        end do
      end if
    case default
      error stop 'ftool: kind: f64, f32, i64 or i32'
    end select
    print '(a)', shmids_label(seg)
    flush (6)
    if (hang) then
      call wait()
    end if
    call shmids_seal(seg)
    call shmids_close(seg)
  end subroutine write

  subroutine ending(how, name, n)
    character(len=*), intent(in) :: how, name
    integer, intent(in) :: n
    type(shmids_segment) :: seg, other
    real(real64), pointer :: a(:), b(:)

    call shmids_create(seg, name, a, n)
    a = 1
    print '(a)', shmids_label(seg)
    flush (6)
    select case (how)
    case ('errorstop')
      error stop 'ftool: an error of the program'
    case ('fail')
      call shmids_open(other, '2147483646 ' // name // '-none', b)
    end select
  end subroutine ending

  subroutine wait()
    interface
      function pause() bind(C, name='pause')
        import :: c_int
        integer(c_int) :: pause
      end function pause
    end interface
    integer(c_int) :: rc

    do
      rc = pause()
    end do
  end subroutine wait

  subroutine read(kind, rank, label)
    character(len=*), intent(in) :: kind, label
    integer, intent(in) :: rank
    type(shmids_segment) :: seg
    real(real64), pointer :: d1(:), d2(:,:)
    real(real32), pointer :: f1(:), f2(:,:)
    integer(int64), pointer :: l1(:), l2(:,:)
    integer(int32), pointer :: i1(:), i2(:,:)
    logical :: tr
    integer :: i

    tr = .false.
    select case (kind)
    case ('f64')
      if (rank == 1) then
        call shmids_open(seg, label, d1, timeout())
        print '(i0, " 1 F")', size(d1)
        print '(es26.17e3)', d1
      else
        call shmids_open(seg, label, d2, timeout(), tr)
        call shape2(d2, tr)
        if (tr) then
          do i = 1, size(d2, 2)
            print '(*(es26.17e3))', d2(:, i)
          end do
        else
          do i = 1, size(d2, 1)
            print '(*(es26.17e3))', d2(i, :)
          end do
        end if
      end if
    case ('f32')
      if (rank == 1) then
        call shmids_open(seg, label, f1, timeout())
        print '(i0, " 1 F")', size(f1)
        print '(es17.8e3)', f1
      else
        call shmids_open(seg, label, f2, timeout(), tr)
        call shape2(f2, tr)
        if (tr) then
          do i = 1, size(f2, 2)
            print '(*(es17.8e3))', f2(:, i)
          end do
        else
          do i = 1, size(f2, 1)
            print '(*(es17.8e3))', f2(i, :)
          end do
        end if
      end if
    case ('i64')
      if (rank == 1) then
        call shmids_open(seg, label, l1, timeout())
        print '(i0, " 1 F")', size(l1)
        print '(i0)', l1
      else
        call shmids_open(seg, label, l2, timeout(), tr)
        call shape2(l2, tr)
        if (tr) then
          do i = 1, size(l2, 2)
            print '(*(i0, :, " "))', l2(:, i)
          end do
        else
          do i = 1, size(l2, 1)
            print '(*(i0, :, " "))', l2(i, :)
          end do
        end if
      end if
    case ('i32')
      if (rank == 1) then
        call shmids_open(seg, label, i1, timeout())
        print '(i0, " 1 F")', size(i1)
        print '(i0)', i1
      else
        call shmids_open(seg, label, i2, timeout(), tr)
        call shape2(i2, tr)
        if (tr) then
          do i = 1, size(i2, 2)
            print '(*(i0, :, " "))', i2(:, i)
          end do
        else
          do i = 1, size(i2, 1)
            print '(*(i0, :, " "))', i2(i, :)
          end do
        end if
      end if
    case default
      error stop 'ftool: kind: f64, f32, i64 or i32'
    end select
    call shmids_close(seg)
  end subroutine read

  ! "rows cols transposed" of the matrix as meant.
  subroutine shape2(a, tr)
    class(*), intent(in) :: a(:,:)
    logical, intent(in) :: tr

    if (tr) then
      print '(i0, 1x, i0, " T")', size(a, 2), size(a, 1)
    else
      print '(i0, 1x, i0, " F")', size(a, 1), size(a, 2)
    end if
  end subroutine shape2

  subroutine open_one()
    type(shmids_segment) :: seg
    real(real64), pointer :: a(:)
    character(len=256) :: label, s
    character(len=200) :: msg
    integer :: st

    call get_command_argument(2, label)
    call get_command_argument(3, s)
    if (trim(s) == 'stat') then
      msg = 'unchanged'
      call shmids_open(seg, trim(label), a, stat=st, errmsg=msg)
      print '(a, i0, l2)', 'stat ', st, associated(a)
      print '(a)', trim(msg)
      if (st == 0) call shmids_close(seg)
    else
      call shmids_open(seg, trim(label), a)
      print '(i0)', size(a)
      call shmids_close(seg)
    end if
  end subroutine open_one

  subroutine paper()
    character(len=256) :: name
    character(kind=c_char), pointer :: h(:)
    type(c_ptr) :: p
    integer :: n, i

    call get_command_argument(2, name)
    n = iarg(3)
    p = shm_create(trim(name), int(o'600'), n)
    if (.not. c_associated(p)) then
      write (error_unit, '(a)') 'ftool: paper: ' // shmids_explain(shmids_errno())
      error stop 1
    end if
    call c_f_pointer(p, h, [SHMIDS_HEADER + n])
    do i = 1, n
      h(SHMIDS_HEADER + i) = achar(iachar('a') + mod(i - 1, 26))
    end do
    ! the label is the header's first line, NUL-terminated
    i = index(transfer(h(1:SHMIDS_LABEL_MAX + 1), repeat(' ', SHMIDS_LABEL_MAX + 1)), c_null_char)
    print '(a)', transfer(h(1:i - 1), repeat(' ', i - 1))
    if (shm_close(p) /= 0) error stop 1
  end subroutine paper

  subroutine dtext()
    real(real64) :: v(200)
    integer :: k

    do k = 0, 199
      v(k + 1) = real(k + 1, real64) / 3 * 10.0_real64**(mod(k, 41) - 20)
    end do
    write (*, '(a, 200d25.17)') 'x', v
    print '(a)', '# rows'
    do k = 0, 29
      write (*, '(3d25.17)') v(3 * k + 1:3 * k + 3)
    end do
  end subroutine dtext

end program ftool
