! freadtable: a Fortran reader of tables other programs made.  It reads
! an ASCII file on standard input and, for each table reference line
! ("shmids 402 name", format-spec.md 5) or keyed one ("x shmids 402
! name"), opens the segment (waiting up to 10 s for its writer) and
! prints each column's sum.  A table numpy or shm-import made is stored
! row by row: the module gives it, without a copy, as its transpose
! a(cols, rows), and says so; one a Fortran or R program made comes as
! a(rows, cols).  Either way a row of the table is a(:, i) or a(i, :).
program freadtable
  use, intrinsic :: iso_fortran_env, only: real64, error_unit
  use shmids
  implicit none
  type(shmids_segment) :: seg
  real(real64), pointer :: a(:,:)
  character(len=4096) :: line
  character(len=128) :: w(4)
  logical :: tr
  integer :: ios, st, rows, cols, j

  do
    read (*, '(a)', iostat=ios) line
    if (ios /= 0) exit
    call words(line, w)
    if (w(1) == 'shmids' .or. w(1) == 'shmids,') then
      w(1:3) = w(2:4)
    else if (w(2) /= 'shmids') then
      cycle
    else
      w(1:2) = w(3:4)
    end if
    call shmids_open(seg, trim(w(1)) // ' ' // trim(w(2)), a, &
        timeout=10.0_real64, transposed=tr, stat=st, errmsg=line)
    if (st /= 0) then
      write (error_unit, '(a)') 'freadtable: ' // trim(line)
      cycle
    end if
    if (tr) then
      rows = size(a, 2)
      cols = size(a, 1)
      print '(a, 1x, i0, "x", i0, a)', trim(w(2)), rows, cols, &
          ', row by row: a(cols, rows)'
      print '("column sums", *(1x, g0))', (sum(a(j, :)), j = 1, cols)
    else
      rows = size(a, 1)
      cols = size(a, 2)
      print '(a, 1x, i0, "x", i0, a)', trim(w(2)), rows, cols, &
          ', column by column: a(rows, cols)'
      print '("column sums", *(1x, g0))', (sum(a(:, j)), j = 1, cols)
    end if
    call shmids_close(seg)
  end do
contains

  ! The first 4 blank-separated words of s (a list-directed read would
  ! end at the "/" of a file segment's path).
  subroutine words(s, w)
    character(len=*), intent(in) :: s
    character(len=*), intent(out) :: w(:)
    integer :: i, j, n

    w = ''
    i = 1
    do n = 1, size(w)
      do while (i <= len_trim(s) .and. (s(i:i) == ' ' .or. s(i:i) == achar(9)))
        i = i + 1
      end do
      if (i > len_trim(s)) return
      j = i
      do while (j <= len_trim(s) .and. s(j:j) /= ' ' .and. s(j:j) /= achar(9))
        j = j + 1
      end do
      w(n) = s(i:j - 1)
      i = j
    end do
  end subroutine words
end program freadtable
