! shmids: the Fortran module over libshmids (Fortran 2003, ISO_C_BINDING,
! and Fortran 2018's error stop with a message: gfortran 9 or later).
!
! It reaches the library through the C API of shmids.h alone, as
! netCDF-Fortran reaches netCDF-C: bind(C) interfaces, Fortran strings
! made NUL-terminated at the edge and C strings copied back into
! Fortran ones, c_f_pointer for the arrays.  The format's rules stay in
! C; this file holds Fortran's types and its conventions only.
!
!   use shmids
!   type(shmids_segment) :: seg
!   real(real64), pointer :: a(:,:)
!   call shmids_create(seg, 'field', a, 100, 3)    ! a(100, 3), zero
!   a = ...                                        ! fill in place
!   call shmids_seal(seg)
!   print '(a)', shmids_label(seg)                 ! "402 field"
!   call shmids_close(seg)
!
! Shapes (format-spec.md 2.7): a rank-2 array a(rows, cols) is a table
! stored column by column (header version 3, SHMIDS_COLMAJOR), so that
! shm-expand writes the rows Fortran means and numpy's attach() gives
! the same matrix.  A row-major table (version 2, what numpy and
! shm-import make) of 2 rows and 2 columns or more opens, without a
! copy, as its transpose a(cols, rows): a(j, i) is row i, column j, and
! transposed= says so.  A table of one row or one column (or none), the
! same bytes in either order, opens as the matrix meant, a(rows, cols),
! as numpy and R give it.  A 1-D segment opens as a(count) or
! a(count, 1); any segment opens as rank 1, its elements in storage
! order.
!
! Errors: every call takes stat= and errmsg= as Fortran's intrinsics
! do.  stat= receives 0 or the errno of the failed C call (EAGAIN,
! ENOENT, ...); errmsg= (if present) the message, left unchanged on
! success; without stat= an error stops the program (error stop) with
! the message, e.g. "ERROR STOP shmids_open: 11 coeff: no such segment
! (removed, or never made)", exit status 1 (gfortran adds a backtrace
! unless built with -fno-backtrace), having removed the segments the
! program made and had not sealed or closed, a line each on stderr.
! The end of the program (STOP, ERROR STOP: C's exit) seals them
! (format-spec.md 2.2).
! Pointers given by shmids_open() point at read-only memory: writing
! through them is a segmentation fault.  A pointer is dangling after
! shmids_close() of its segment.  Not thread-safe (shmids(3)).
module shmids
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32, int64, &
      error_unit
  implicit none
  private

  ! Element types (format-spec.md 4; enum shmids_type in shmids.h).
  integer, parameter, public :: SHMIDS_RAW = 0, SHMIDS_F64 = 1, &
      SHMIDS_F32 = 2, SHMIDS_I64 = 3, SHMIDS_I32 = 4
  integer, parameter, public :: SHMIDS_HEADER = 128      ! bytes
  integer, parameter, public :: SHMIDS_LABEL_MAX = 75    ! bytes
  integer, parameter, public :: SHMIDS_EXPLAIN_MAX = 1024 ! bytes, NUL in
  character, parameter, public :: SHMIDS_ROWMAJOR = 'C'
  character, parameter, public :: SHMIDS_COLMAJOR = 'F'

  ! An attached segment: made by shmids_create(), or opened.
  type, public :: shmids_segment
    private
    type(c_ptr) :: shm = c_null_ptr
  end type shmids_segment

  ! The segments this program made and has not sealed or closed: the
  ! module's own error stop removes them (format-spec.md 2.2: an end by
  ! an uncaught error), where the end of the program seals them (the
  ! library's exit seal; ERROR STOP in the program too, which gfortran
  ! ends through exit(3) as STOP: the module cannot tell it).
  type(c_ptr), allocatable, save :: filling(:)
  integer, save :: nfilling = 0

  ! A stream's writer (shmids_stream_create) or reader (shmids_follow)
  ! (format-spec.md 10; shmids_stream(3)).
  type, public :: shmids_stream
    private
    type(c_ptr) :: s = c_null_ptr
    integer(c_size_t) :: capacity = 0     ! bytes a message may hold
  end type shmids_stream

  public :: shmids_stream_create, shmids_publish, shmids_follow
  public :: shmids_next, shmids_stream_close, shmids_stream_label

  ! call shmids_publish(st, a [, seq, timeout, stat, errmsg]): a copy of
  ! a (rank 1 or 2; real64, real32, int64, int32) as the next message
  interface shmids_publish
    module procedure publish_f64_1, publish_f64_2, publish_f32_1, &
        publish_f32_2, publish_i64_1, publish_i64_2, publish_i32_1, &
        publish_i32_2
  end interface shmids_publish

  ! call shmids_next(st, a, more [, seq, timeout, transposed, stat,
  ! errmsg]): the next message in place, read-only (real64 or int32)
  interface shmids_next
    module procedure next_f64_1, next_f64_2, next_i32_1, next_i32_2
  end interface shmids_next

  public :: shmids_create, shmids_open, shmids_seal, shmids_close
  public :: shmids_remove, shmids_label, shmids_explain, shmids_attached
  public :: shmids_errno, shm_create, shm_open, shm_close

  ! call shmids_create(seg, name, a, n [, mode, stat, errmsg])
  ! call shmids_create(seg, name, a, rows, cols [, mode, stat, errmsg])
  interface shmids_create
    module procedure create_f64_1, create_f64_2, create_f32_1, &
        create_f32_2, create_i64_1, create_i64_2, create_i32_1, &
        create_i32_2
  end interface shmids_create

  ! call shmids_open(seg, label, a [, timeout, stat, errmsg])
  ! call shmids_open(seg, label, a [, timeout, transposed, stat, errmsg])
  interface shmids_open
    module procedure open_f64_1, open_f64_2, open_f32_1, open_f32_2, &
        open_i64_1, open_i64_2, open_i32_1, open_i32_2
  end interface shmids_open

  ! struct shmids_array and struct shmids_dims of shmids.h.
  type, bind(C) :: c_array
    type(c_ptr) :: data
    integer(c_size_t) :: count
    integer(c_int) :: type
    type(c_ptr) :: shm_, buf_
  end type c_array
  type, bind(C) :: c_dims
    integer(c_int) :: ndim, order
    integer(c_size_t) :: rows, cols
  end type c_dims

  ! struct shmids_msg of shmids.h.
  type, bind(C) :: c_msg
    type(c_ptr) :: data
    integer(c_size_t) :: nbytes
    integer(c_long_long) :: seq, lost
    integer(c_int) :: type, ndim, order
    integer(c_size_t) :: rows, cols
  end type c_msg

  interface
    function c_stream_create(name, mode, slots, capacity, readers, flags) &
        bind(C, name='shmids_stream_create')
      import :: c_ptr, c_char, c_int, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: mode, readers, flags
      integer(c_size_t), value :: slots, capacity
      type(c_ptr) :: c_stream_create
    end function c_stream_create
    function c_stream_loan(s, seconds) bind(C, name='shmids_stream_loan')
      import :: c_ptr, c_double
      type(c_ptr), value :: s
      real(c_double), value :: seconds
      type(c_ptr) :: c_stream_loan
    end function c_stream_loan
    function c_stream_publish(s, type, rows, cols, order) &
        bind(C, name='shmids_stream_publish')
      import :: c_ptr, c_int, c_size_t, c_long_long
      type(c_ptr), value :: s
      integer(c_int), value :: type, order
      integer(c_size_t), value :: rows, cols
      integer(c_long_long) :: c_stream_publish
    end function c_stream_publish
    function c_stream_open(label, flags, seconds) &
        bind(C, name='shmids_stream_open')
      import :: c_ptr, c_char, c_int, c_double
      character(kind=c_char), intent(in) :: label(*)
      integer(c_int), value :: flags
      real(c_double), value :: seconds
      type(c_ptr) :: c_stream_open
    end function c_stream_open
    function c_stream_next(s, m, seconds) bind(C, name='shmids_stream_next')
      import :: c_ptr, c_int, c_double, c_msg
      type(c_ptr), value :: s
      type(c_msg), intent(out) :: m
      real(c_double), value :: seconds
      integer(c_int) :: c_stream_next
    end function c_stream_next
    function c_type_name(type) bind(C, name='shmids_type_name')
      import :: c_ptr, c_int
      integer(c_int), value :: type
      type(c_ptr) :: c_type_name
    end function c_type_name
    function c_stream_close(s) bind(C, name='shmids_stream_close')
      import :: c_ptr, c_int
      type(c_ptr), value :: s
      integer(c_int) :: c_stream_close
    end function c_stream_close
    function c_stream_label(s) bind(C, name='shmids_stream_label')
      import :: c_ptr
      type(c_ptr), value :: s
      type(c_ptr) :: c_stream_label
    end function c_stream_label
    function c_create_array(name, mode, type, count) &
        bind(C, name='shmids_create_array')
      import :: c_ptr, c_char, c_int, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: mode, type
      integer(c_size_t), value :: count
      type(c_ptr) :: c_create_array
    end function c_create_array
    function c_create_matrix(name, mode, type, rows, cols, order) &
        bind(C, name='shmids_create_matrix')
      import :: c_ptr, c_char, c_int, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: mode, type, order
      integer(c_size_t), value :: rows, cols
      type(c_ptr) :: c_create_matrix
    end function c_create_matrix
    function c_open_wait(label, flags, seconds) &
        bind(C, name='shmids_open_flags')
      import :: c_ptr, c_char, c_int, c_double
      character(kind=c_char), intent(in) :: label(*)
      integer(c_int), value :: flags
      real(c_double), value :: seconds
      type(c_ptr) :: c_open_wait
    end function c_open_wait
    function c_seal(shm) bind(C, name='shmids_seal')
      import :: c_ptr, c_int
      type(c_ptr), value :: shm
      integer(c_int) :: c_seal
    end function c_seal
    function c_close(shm) bind(C, name='shmids_close')
      import :: c_ptr, c_int
      type(c_ptr), value :: shm
      integer(c_int) :: c_close
    end function c_close
    function c_remove(label) bind(C, name='shmids_remove')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: label(*)
      integer(c_int) :: c_remove
    end function c_remove
    function c_label(shm) bind(C, name='shmids_label')
      import :: c_ptr
      type(c_ptr), value :: shm
      type(c_ptr) :: c_label
    end function c_label
    function c_get_array(shm, a) bind(C, name='shmids_array')
      import :: c_ptr, c_int, c_array
      type(c_ptr), value :: shm
      type(c_array), intent(out) :: a
      integer(c_int) :: c_get_array
    end function c_get_array
    function c_get_dims(shm, d) bind(C, name='shmids_dims')
      import :: c_ptr, c_int, c_dims
      type(c_ptr), value :: shm
      type(c_dims), intent(out) :: d
      integer(c_int) :: c_get_dims
    end function c_get_dims
    function c_type_size(type) bind(C, name='shmids_type_size')
      import :: c_int, c_size_t
      integer(c_int), value :: type
      integer(c_size_t) :: c_type_size
    end function c_type_size
    function c_explain(buf, size, label, errnum) &
        bind(C, name='shmids_explain')
      import :: c_char, c_size_t, c_ptr, c_int
      character(kind=c_char), intent(out) :: buf(*)
      integer(c_size_t), value :: size
      type(c_ptr), value :: label
      integer(c_int), value :: errnum
      integer(c_int) :: c_explain
    end function c_explain
    function c_paper_create(name, mode, nbytes) &
        bind(C, name='shmids_paper_create')
      import :: c_ptr, c_char, c_int
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: mode, nbytes
      type(c_ptr) :: c_paper_create
    end function c_paper_create
    function c_paper_open(label) bind(C, name='shmids_paper_open')
      import :: c_ptr, c_char
      character(kind=c_char), intent(in) :: label(*)
      type(c_ptr) :: c_paper_open
    end function c_paper_open
    function c_paper_close(shm) bind(C, name='shmids_paper_close')
      import :: c_ptr, c_int
      type(c_ptr), value :: shm
      integer(c_int) :: c_paper_close
    end function c_paper_close
    function c_strlen(s) bind(C, name='strlen')
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: c_strlen
    end function c_strlen
    ! fortran/errno.c: errno, and errno values Fortran has no names for.
    function c_errno() bind(C, name='shmids_fortran_errno')
      import :: c_int
      integer(c_int) :: c_errno
    end function c_errno
    function c_errnum(which) bind(C, name='shmids_fortran_errnum')
      import :: c_int
      integer(c_int), value :: which
      integer(c_int) :: c_errnum
    end function c_errnum
  end interface

contains

  ! The Fortran string s as a C string (trailing blanks are Fortran's
  ! padding: a name or label never ends in a blank).
  pure function cstr(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c

    c = trim(s) // c_null_char
  end function cstr

  ! The C string at p copied into a Fortran string ('' for NULL).
  function fstr(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: c(:)
    integer(c_size_t) :: n, i

    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = c_strlen(p)
    call c_f_pointer(p, c, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = c(i)
    end do
  end function fstr

  ! shmids_explain(errnum [, label]): the library's words for errnum on
  ! the segment label names (shmids_explain(3)): one line, lower case
  ! first, no final period.  Without label, for shmids_create(), where
  ! SHMIDS_DIR decides which store is meant.
  function shmids_explain(errnum, label) result(s)
    integer, intent(in) :: errnum
    character(len=*), intent(in), optional :: label
    character(len=:), allocatable :: s
    character(kind=c_char) :: buf(SHMIDS_EXPLAIN_MAX)
    character(kind=c_char, len=:), allocatable, target :: cl
    integer(c_int) :: n
    integer :: i

    if (present(label)) then
      cl = cstr(label)
      n = c_explain(buf, int(SHMIDS_EXPLAIN_MAX, c_size_t), c_loc(cl), &
          int(errnum, c_int))
    else
      n = c_explain(buf, int(SHMIDS_EXPLAIN_MAX, c_size_t), c_null_ptr, &
          int(errnum, c_int))
    end if
    n = max(0, min(n, SHMIDS_EXPLAIN_MAX - 1))
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = buf(i)
    end do
  end function shmids_explain

  ! shmids_errno(): errno as the last C call left it, for shm_create(),
  ! shm_open() and shm_close(), which return C's answers.
  function shmids_errno() result(e)
    integer :: e

    e = c_errno()
  end function shmids_errno

  ! Report errnum of call (on label; '' for none) as the intrinsics do:
  ! stat= and errmsg= if present, else error stop with the message,
  ! first removing the segments still being filled (abandon()).
  subroutine fail(errnum, call, label, explained, stat, errmsg)
    integer, intent(in) :: errnum
    character(len=*), intent(in) :: call, label, explained
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: msg

    msg = call // ': ' // label // ': ' // explained
    if (present(errmsg)) errmsg = msg
    if (present(stat)) then
      stat = errnum
    else
      call abandon()
      error stop msg
    end if
  end subroutine fail

  ! The program ends by an error (the module's error stop): remove what
  ! it never sealed, a line each on stderr, never a half-written array
  ! left ready by the exit seal (format-spec.md 2.2).
  subroutine abandon()
    character(len=:), allocatable :: label
    integer :: i

    do i = 1, nfilling
      label = fstr(c_label(filling(i)))
      if (c_remove(cstr(label)) == 0) write (error_unit, '(a)') &
          'shmids: ' // label // ': removed, never sealed: the program ' &
          // 'ends by an uncaught error'
    end do
    flush (error_unit)
    nfilling = 0
  end subroutine abandon

  ! filling(): shm made here (add true) or sealed or closed (false).
  subroutine track(shm, add)
    type(c_ptr), intent(in) :: shm
    logical, intent(in) :: add
    type(c_ptr), allocatable :: more(:)
    integer :: i

    if (add) then
      if (.not. allocated(filling)) allocate(filling(8))
      if (nfilling == size(filling)) then
        allocate(more(2 * nfilling))
        more(1:nfilling) = filling
        call move_alloc(more, filling)
      end if
      nfilling = nfilling + 1
      filling(nfilling) = shm
      return
    end if
    do i = 1, nfilling
      if (c_associated(filling(i), shm)) then
        filling(i) = filling(nfilling)
        nfilling = nfilling - 1
        return
      end if
    end do
  end subroutine track

  subroutine ok(stat)
    integer, intent(out), optional :: stat

    if (present(stat)) stat = 0
  end subroutine ok

  ! Make a segment of rows x cols elements of type (rank 1: cols 1 and
  ! table false, a version-1 array; rank 2: a column-major table) and
  ! give its payload's address in p (c_null_ptr on error).
  subroutine make(seg, name, type, rows, cols, table, mode, p, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    integer, intent(in) :: type
    integer(c_size_t), intent(in) :: rows, cols
    logical, intent(in) :: table
    integer, intent(in), optional :: mode
    type(c_ptr), intent(out) :: p
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_array) :: a
    integer(c_int) :: m
    integer :: e

    p = c_null_ptr
    seg%shm = c_null_ptr
    m = int(o'600', c_int)
    if (present(mode)) m = int(mode, c_int)
    if (rows < 0 .or. cols < 0) then
      e = c_errnum(1)
      call fail(e, 'shmids_create', trim(name), &
          'a negative extent is no shape', stat, errmsg)
      return
    end if
    if (table) then
      seg%shm = c_create_matrix(cstr(name), m, int(type, c_int), rows, &
          cols, int(ichar(SHMIDS_COLMAJOR), c_int))
    else
      seg%shm = c_create_array(cstr(name), m, int(type, c_int), rows)
    end if
    if (.not. c_associated(seg%shm)) then
      e = c_errno()
      call fail(e, 'shmids_create', trim(name), shmids_explain(e), &
          stat, errmsg)
      return
    end if
    if (c_get_array(seg%shm, a) /= 0) then
      e = c_errno()
      call fail(e, 'shmids_create', trim(name), shmids_explain(e), &
          stat, errmsg)
      return
    end if
    p = a%data
    ! count 0: a zero-size array still needs an address to point at
    if (.not. c_associated(p)) p = seg%shm
    call track(seg%shm, .true.)
    call ok(stat)
  end subroutine make

  ! Open label (waiting up to timeout seconds for its writer's seal),
  ! check its element type is type (or raw of a multiple of its size),
  ! and give the payload's address in p and the shape a rank-2 pointer
  ! gets: (rows, cols) of a column-major table, the transpose (cols,
  ! rows) of a row-major one (tr true), (count, 1) of a 1-D array.
  subroutine attach(seg, label, type, timeout, p, rows, cols, tr, stat, &
      errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    integer, intent(in) :: type
    real(real64), intent(in), optional :: timeout
    type(c_ptr), intent(out) :: p
    integer(c_size_t), intent(out) :: rows, cols
    logical, intent(out) :: tr
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_array) :: a
    type(c_dims) :: d
    real(c_double) :: t
    integer(c_size_t) :: size, count
    integer(c_int) :: rc
    integer :: e

    p = c_null_ptr
    rows = 0
    cols = 0
    tr = .false.
    t = 0
    if (present(timeout)) t = real(timeout, c_double)
    seg%shm = c_open_wait(cstr(label), 0_c_int, t)
    if (.not. c_associated(seg%shm)) then
      e = c_errno()
      call fail(e, 'shmids_open', trim(label), &
          shmids_explain(e, trim(label)), stat, errmsg)
      return
    end if
    ! shmids_array() gives 0, shmids_dims() the dimensions: -1 fails
    rc = c_get_array(seg%shm, a)
    if (rc == 0) rc = min(0, c_get_dims(seg%shm, d))
    if (rc /= 0) then
      e = c_errno()
      call drop()
      call fail(e, 'shmids_open', trim(label), &
          shmids_explain(e, trim(label)), stat, errmsg)
      return
    end if
    size = c_type_size(int(type, c_int))
    count = a%count
    if (a%type == SHMIDS_RAW .and. mod(a%count, size) == 0) then
      count = a%count / size
      d%ndim = 1
    else if (a%type /= type) then
      e = c_errnum(0)
      call drop()
      call fail(e, 'shmids_open', trim(label), &
          shmids_explain(e, trim(label)), stat, errmsg)
      return
    end if
    ! one row or one column (or none): either order is the same bytes
    if (d%ndim == 2 .and. (d%order == ichar(SHMIDS_COLMAJOR) .or. &
        d%rows <= 1 .or. d%cols <= 1)) then
      rows = d%rows
      cols = d%cols
    else if (d%ndim == 2) then
      rows = d%cols
      cols = d%rows
      tr = .true.
    else
      rows = count
      cols = 1
    end if
    p = a%data
    if (.not. c_associated(p)) p = seg%shm
    call ok(stat)
  contains
    subroutine drop()
      integer(c_int) :: rc

      rc = c_close(seg%shm)
      seg%shm = c_null_ptr
    end subroutine drop
  end subroutine attach

  ! shmids_attached(seg): true while seg holds an attached segment.
  logical function shmids_attached(seg)
    type(shmids_segment), intent(in) :: seg

    shmids_attached = c_associated(seg%shm)
  end function shmids_attached

  ! shmids_label(seg): the label of seg ("402 field", or a file
  ! segment's "/dir/shmids.XXXXXX field"), the one a reference line
  ! names; '' if seg is not attached.
  function shmids_label(seg) result(s)
    type(shmids_segment), intent(in) :: seg
    character(len=:), allocatable :: s

    s = ''
    if (c_associated(seg%shm)) s = fstr(c_label(seg%shm))
  end function shmids_label

  ! call shmids_seal(seg [, stat, errmsg]): mark seg, made by this
  ! process, ready; readers never see it before.  Idempotent.
  subroutine shmids_seal(seg, stat, errmsg)
    type(shmids_segment), intent(in) :: seg
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: e

    if (c_seal(seg%shm) /= 0) then
      e = c_errno()
      call fail(e, 'shmids_seal', shmids_label(seg), shmids_explain(e), &
          stat, errmsg)
      return
    end if
    call track(seg%shm, .false.)
    call ok(stat)
  end subroutine shmids_seal

  ! call shmids_close(seg [, stat, errmsg]): detach seg (sealing it
  ! first if this process made it); the segment stays, and the pointers
  ! into it dangle.
  subroutine shmids_close(seg, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: label
    integer :: e

    label = shmids_label(seg)
    call track(seg%shm, .false.)
    if (c_close(seg%shm) /= 0) then
      e = c_errno()
      call fail(e, 'shmids_close', label, shmids_explain(e), stat, errmsg)
      return
    end if
    seg%shm = c_null_ptr
    call ok(stat)
  end subroutine shmids_close

  ! call shmids_remove(label [, stat, errmsg]): remove the segment
  ! label names, after checking its header carries that label; those
  ! attached keep it till they detach.
  subroutine shmids_remove(label, stat, errmsg)
    character(len=*), intent(in) :: label
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer :: e

    if (c_remove(cstr(label)) /= 0) then
      e = c_errno()
      call fail(e, 'shmids_remove', trim(label), &
          shmids_explain(e, trim(label)), stat, errmsg)
      return
    end if
    call ok(stat)
  end subroutine shmids_remove

  ! The paper's three calls (Grosse 1990, Figure 1; shmids_paper.h),
  ! for codes that manage the bytes themselves: c_null_ptr (or -1) and
  ! shmids_errno() on error.  shm_create() gives the header's address;
  ! the nbytes of payload are SHMIDS_HEADER bytes later, e.g.
  !   call c_f_pointer(shm_create('buf', int(o'600'), 80), h, [128 + 80])
  ! with character(kind=c_char), pointer :: h(:).
  function shm_create(name, mode, nbytes) result(p)
    character(len=*), intent(in) :: name
    integer, intent(in) :: mode, nbytes
    type(c_ptr) :: p

    p = c_paper_create(cstr(name), int(mode, c_int), int(nbytes, c_int))
  end function shm_create

  function shm_open(label) result(p)
    character(len=*), intent(in) :: label
    type(c_ptr) :: p

    p = c_paper_open(cstr(label))
  end function shm_open

  function shm_close(shm) result(rc)
    type(c_ptr), intent(in) :: shm
    integer :: rc

    rc = int(c_paper_close(shm))
  end function shm_close

  subroutine create_f64_1(seg, name, a, n, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    real(real64), pointer, intent(out) :: a(:)
    integer, intent(in) :: n
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_F64, int(n, c_size_t), 1_c_size_t, .false., &
        mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [int(n, c_size_t)])
  end subroutine create_f64_1

  subroutine create_f64_2(seg, name, a, rows, cols, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    real(real64), pointer, intent(out) :: a(:,:)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_F64, int(rows, c_size_t), int(cols, c_size_t), &
        .true., mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, &
        [int(rows, c_size_t), int(cols, c_size_t)])
  end subroutine create_f64_2

  subroutine open_f64_1(seg, label, a, timeout, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    real(real64), pointer, intent(out) :: a(:)
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call attach(seg, label, SHMIDS_F64, timeout, p, rows, cols, tr, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [rows * cols])
  end subroutine open_f64_1

  subroutine open_f64_2(seg, label, a, timeout, transposed, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    real(real64), pointer, intent(out) :: a(:,:)
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call attach(seg, label, SHMIDS_F64, timeout, p, rows, cols, tr, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine open_f64_2

  subroutine create_f32_1(seg, name, a, n, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    real(real32), pointer, intent(out) :: a(:)
    integer, intent(in) :: n
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_F32, int(n, c_size_t), 1_c_size_t, .false., &
        mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [int(n, c_size_t)])
  end subroutine create_f32_1

  subroutine create_f32_2(seg, name, a, rows, cols, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    real(real32), pointer, intent(out) :: a(:,:)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_F32, int(rows, c_size_t), int(cols, c_size_t), &
        .true., mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, &
        [int(rows, c_size_t), int(cols, c_size_t)])
  end subroutine create_f32_2

  subroutine open_f32_1(seg, label, a, timeout, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    real(real32), pointer, intent(out) :: a(:)
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call attach(seg, label, SHMIDS_F32, timeout, p, rows, cols, tr, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [rows * cols])
  end subroutine open_f32_1

  subroutine open_f32_2(seg, label, a, timeout, transposed, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    real(real32), pointer, intent(out) :: a(:,:)
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call attach(seg, label, SHMIDS_F32, timeout, p, rows, cols, tr, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine open_f32_2

  subroutine create_i64_1(seg, name, a, n, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    integer(int64), pointer, intent(out) :: a(:)
    integer, intent(in) :: n
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_I64, int(n, c_size_t), 1_c_size_t, .false., &
        mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [int(n, c_size_t)])
  end subroutine create_i64_1

  subroutine create_i64_2(seg, name, a, rows, cols, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    integer(int64), pointer, intent(out) :: a(:,:)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_I64, int(rows, c_size_t), int(cols, c_size_t), &
        .true., mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, &
        [int(rows, c_size_t), int(cols, c_size_t)])
  end subroutine create_i64_2

  subroutine open_i64_1(seg, label, a, timeout, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    integer(int64), pointer, intent(out) :: a(:)
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call attach(seg, label, SHMIDS_I64, timeout, p, rows, cols, tr, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [rows * cols])
  end subroutine open_i64_1

  subroutine open_i64_2(seg, label, a, timeout, transposed, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    integer(int64), pointer, intent(out) :: a(:,:)
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call attach(seg, label, SHMIDS_I64, timeout, p, rows, cols, tr, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine open_i64_2

  subroutine create_i32_1(seg, name, a, n, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    integer(int32), pointer, intent(out) :: a(:)
    integer, intent(in) :: n
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_I32, int(n, c_size_t), 1_c_size_t, .false., &
        mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [int(n, c_size_t)])
  end subroutine create_i32_1

  subroutine create_i32_2(seg, name, a, rows, cols, mode, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: name
    integer(int32), pointer, intent(out) :: a(:,:)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p

    nullify(a)
    call make(seg, name, SHMIDS_I32, int(rows, c_size_t), int(cols, c_size_t), &
        .true., mode, p, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, &
        [int(rows, c_size_t), int(cols, c_size_t)])
  end subroutine create_i32_2

  subroutine open_i32_1(seg, label, a, timeout, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    integer(int32), pointer, intent(out) :: a(:)
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call attach(seg, label, SHMIDS_I32, timeout, p, rows, cols, tr, stat, errmsg)
    if (c_associated(p)) call c_f_pointer(p, a, [rows * cols])
  end subroutine open_i32_1

  subroutine open_i32_2(seg, label, a, timeout, transposed, stat, errmsg)
    type(shmids_segment), intent(inout) :: seg
    character(len=*), intent(in) :: label
    integer(int32), pointer, intent(out) :: a(:,:)
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call attach(seg, label, SHMIDS_I32, timeout, p, rows, cols, tr, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine open_i32_2

  ! ---------------------------------------------------------------------
  ! Streams (format-spec.md section 10, message references 5.1;
  ! shmids_stream(3)): one segment whose ring of slots carries many
  ! messages.  A writer publishes copies of its arrays (column by column,
  ! as Fortran holds them); a reader gets each message in place, a
  ! read-only pointer into the ring, valid until its next call.
  ! ---------------------------------------------------------------------

  ! Seconds as the library takes them: absent, or 1e9 or more, for ever.
  pure function secs(timeout) result(t)
    real(real64), intent(in), optional :: timeout
    real(c_double) :: t

    t = 1.0e9_c_double
    if (present(timeout)) t = real(min(timeout, 1.0e9_real64), c_double)
  end function secs

  ! call shmids_stream_create(st, name, slots, capacity [, mode, readers,
  ! stat, errmsg]): make a stream of slots slots of capacity bytes each;
  ! readers (default 1) the registrations the writer waits for before
  ! it reuses a slot (format-spec.md 10.4); mode default o'600.
  subroutine shmids_stream_create(st, name, slots, capacity, mode, &
      readers, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    character(len=*), intent(in) :: name
    integer, intent(in) :: slots, capacity
    integer, intent(in), optional :: mode, readers
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: m, r
    integer :: e

    st%s = c_null_ptr
    m = int(o'600', c_int)
    if (present(mode)) m = int(mode, c_int)
    r = 1
    if (present(readers)) r = int(readers, c_int)
    if (slots < 1 .or. capacity < 1) then
      e = c_errnum(1)
      call fail(e, 'shmids_stream_create', trim(name), &
          'slots and capacity are 1 or more', stat, errmsg)
      return
    end if
    st%s = c_stream_create(cstr(name), m, int(slots, c_size_t), &
        int(capacity, c_size_t), r, 0_c_int)
    if (.not. c_associated(st%s)) then
      e = c_errno()
      call fail(e, 'shmids_stream_create', trim(name), shmids_explain(e), &
          stat, errmsg)
      return
    end if
    st%capacity = int(capacity, c_size_t)
    call ok(stat)
  end subroutine shmids_stream_create

  ! call shmids_follow(st, label [, new, timeout, stat, errmsg]):
  ! register as a reader of the stream label names ("<id> <name>", or
  ! "<id> <name> <seq>" to start at message seq; new: at the next one
  ! published), waiting up to timeout seconds for one still being made.
  subroutine shmids_follow(st, label, new, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    character(len=*), intent(in) :: label
    logical, intent(in), optional :: new
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: flags
    integer :: e

    flags = 0
    if (present(new)) then
      if (new) flags = 4          ! SHMIDS_STREAM_NEW
    end if
    st%s = c_stream_open(cstr(label), flags, secs(timeout))
    if (.not. c_associated(st%s)) then
      e = c_errno()
      call fail(e, 'shmids_follow', trim(label), &
          shmids_explain(e, trim(label)), stat, errmsg)
      return
    end if
    call ok(stat)
  end subroutine shmids_follow

  ! shmids_stream_label(st): the stream's label, "<id> <name>" ('' if
  ! closed); a message's reference line is "field shmids " // label //
  ! " " // its seq (format-spec.md 5.1).
  function shmids_stream_label(st) result(s)
    type(shmids_stream), intent(in) :: st
    character(len=:), allocatable :: s

    s = ''
    if (c_associated(st%s)) s = fstr(c_stream_label(st%s))
  end function shmids_stream_label

  ! call shmids_stream_close(st): a writer's stream ends (its readers
  ! get every message, then the end); a reader unregisters.  Pointers
  ! shmids_next() gave dangle afterwards.  Idempotent.
  subroutine shmids_stream_close(st)
    type(shmids_stream), intent(inout) :: st
    integer(c_int) :: rc

    if (c_associated(st%s)) rc = c_stream_close(st%s)
    st%s = c_null_ptr
  end subroutine shmids_stream_close

  ! The next slot for n elements of type, at p (c_null_ptr after an
  ! error, reported as fail() does).
  subroutine lend(st, type, n, timeout, p, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer, intent(in) :: type
    integer(c_size_t), intent(in) :: n
    real(real64), intent(in), optional :: timeout
    type(c_ptr), intent(out) :: p
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: l
    integer :: e

    p = c_null_ptr
    if (.not. c_associated(st%s)) then
      call fail(c_errnum(1), 'shmids_publish', '', 'the stream is not open', &
          stat, errmsg)
      return
    end if
    l = shmids_stream_label(st)
    ! the elements go in before publish() checks them: check first
    if (n > st%capacity / c_type_size(int(type, c_int))) then
      e = c_errnum(2)
      call fail(e, 'shmids_publish', l, shmids_explain(e, l), stat, errmsg)
      return
    end if
    p = c_stream_loan(st%s, secs(timeout))
    if (.not. c_associated(p)) then
      e = c_errno()
      call fail(e, 'shmids_publish', l, shmids_explain(e, l), stat, errmsg)
    end if
  end subroutine lend

  ! Publish the loaned slot: rows elements of type (cols 0), or a table
  ! rows x cols column by column.
  subroutine pub(st, type, rows, cols, seq, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer, intent(in) :: type
    integer(c_size_t), intent(in) :: rows, cols
    integer(int64), intent(out), optional :: seq
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_long_long) :: q
    integer :: e

    q = c_stream_publish(st%s, int(type, c_int), rows, cols, &
        int(ichar(SHMIDS_COLMAJOR), c_int))
    if (q < 0) then
      e = c_errno()
      call fail(e, 'shmids_publish', shmids_stream_label(st), &
          shmids_explain(e, shmids_stream_label(st)), stat, errmsg)
      return
    end if
    if (present(seq)) seq = int(q, int64)
    call ok(stat)
  end subroutine pub

  ! The next message, of type: its address p and the shape a rank-2
  ! pointer gets, as attach() gives a segment's ((rows, cols) of a
  ! column-major table, the transpose of a row-major one, tr true;
  ! (count, 1) of a 1-D message); more false at the end of the stream
  ! or after an error.
  subroutine take(st, type, timeout, p, rows, cols, tr, more, seq, stat, &
      errmsg)
    type(shmids_stream), intent(inout) :: st
    integer, intent(in) :: type
    real(real64), intent(in), optional :: timeout
    type(c_ptr), intent(out) :: p
    integer(c_size_t), intent(out) :: rows, cols
    logical, intent(out) :: tr, more
    integer(int64), intent(out), optional :: seq
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_msg) :: m
    character(len=:), allocatable :: l
    character(len=20) :: num
    integer(c_int) :: r
    integer :: e

    p = c_null_ptr
    rows = 0
    cols = 0
    tr = .false.
    more = .false.
    if (.not. c_associated(st%s)) then
      call fail(c_errnum(1), 'shmids_next', '', 'the stream is not open', &
          stat, errmsg)
      return
    end if
    l = shmids_stream_label(st)
    r = c_stream_next(st%s, m, secs(timeout))
    if (r < 0) then
      e = c_errno()
      call fail(e, 'shmids_next', l, shmids_explain(e, l), stat, errmsg)
      return
    end if
    if (r == 0) then
      call ok(stat)
      return
    end if
    if (present(seq)) seq = int(m%seq, int64)
    if (m%type /= type) then
      e = c_errnum(0)
      write (num, '(i0)') m%seq
      call fail(e, 'shmids_next', l, 'message ' // trim(num) // ' holds ' &
          // fstr(c_type_name(m%type)) // ', not ' // &
          fstr(c_type_name(int(type, c_int))) // &
          ': read it with an array of its type', stat, errmsg)
      return
    end if
    if (m%ndim == 2 .and. (m%order == ichar(SHMIDS_COLMAJOR) .or. &
        m%rows <= 1 .or. m%cols <= 1)) then
      rows = m%rows
      cols = m%cols
    else if (m%ndim == 2) then
      rows = m%cols
      cols = m%rows
      tr = .true.
    else
      rows = m%rows
      cols = 1
    end if
    p = m%data
    more = .true.
    call ok(stat)
  end subroutine take

  subroutine publish_f64_1(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real64), intent(in) :: a(:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    real(real64), pointer :: d(:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_F64, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_F64, size(a, kind=c_size_t), 0_c_size_t, seq, stat, errmsg)
  end subroutine publish_f64_1

  subroutine publish_f64_2(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real64), intent(in) :: a(:,:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    real(real64), pointer :: d(:,:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_F64, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_F64, size(a, 1, kind=c_size_t), &
        size(a, 2, kind=c_size_t), seq, stat, errmsg)
  end subroutine publish_f64_2

  subroutine publish_f32_1(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real32), intent(in) :: a(:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    real(real32), pointer :: d(:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_F32, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_F32, size(a, kind=c_size_t), 0_c_size_t, seq, stat, errmsg)
  end subroutine publish_f32_1

  subroutine publish_f32_2(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real32), intent(in) :: a(:,:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    real(real32), pointer :: d(:,:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_F32, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_F32, size(a, 1, kind=c_size_t), &
        size(a, 2, kind=c_size_t), seq, stat, errmsg)
  end subroutine publish_f32_2

  subroutine publish_i64_1(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int64), intent(in) :: a(:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), pointer :: d(:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_I64, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_I64, size(a, kind=c_size_t), 0_c_size_t, seq, stat, errmsg)
  end subroutine publish_i64_1

  subroutine publish_i64_2(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int64), intent(in) :: a(:,:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), pointer :: d(:,:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_I64, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_I64, size(a, 1, kind=c_size_t), &
        size(a, 2, kind=c_size_t), seq, stat, errmsg)
  end subroutine publish_i64_2

  subroutine publish_i32_1(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int32), intent(in) :: a(:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int32), pointer :: d(:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_I32, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_I32, size(a, kind=c_size_t), 0_c_size_t, seq, stat, errmsg)
  end subroutine publish_i32_1

  subroutine publish_i32_2(st, a, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int32), intent(in) :: a(:,:)
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int32), pointer :: d(:,:)
    type(c_ptr) :: p

    call lend(st, SHMIDS_I32, size(a, kind=c_size_t), timeout, p, stat, errmsg)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, d, shape(a, kind=c_size_t))
    d = a
    call pub(st, SHMIDS_I32, size(a, 1, kind=c_size_t), &
        size(a, 2, kind=c_size_t), seq, stat, errmsg)
  end subroutine publish_i32_2

  subroutine next_f64_1(st, a, more, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real64), pointer, intent(out) :: a(:)
    logical, intent(out) :: more
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call take(st, SHMIDS_F64, timeout, p, rows, cols, tr, more, seq, stat, errmsg)
    if (more) call c_f_pointer(p, a, [rows * cols])
  end subroutine next_f64_1

  subroutine next_f64_2(st, a, more, seq, timeout, transposed, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    real(real64), pointer, intent(out) :: a(:,:)
    logical, intent(out) :: more
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call take(st, SHMIDS_F64, timeout, p, rows, cols, tr, more, seq, stat, errmsg)
    if (.not. more) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine next_f64_2

  subroutine next_i32_1(st, a, more, seq, timeout, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int32), pointer, intent(out) :: a(:)
    logical, intent(out) :: more
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    call take(st, SHMIDS_I32, timeout, p, rows, cols, tr, more, seq, stat, errmsg)
    if (more) call c_f_pointer(p, a, [rows * cols])
  end subroutine next_i32_1

  subroutine next_i32_2(st, a, more, seq, timeout, transposed, stat, errmsg)
    type(shmids_stream), intent(inout) :: st
    integer(int32), pointer, intent(out) :: a(:,:)
    logical, intent(out) :: more
    integer(int64), intent(out), optional :: seq
    real(real64), intent(in), optional :: timeout
    logical, intent(out), optional :: transposed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_size_t) :: rows, cols
    logical :: tr

    nullify(a)
    if (present(transposed)) transposed = .false.
    call take(st, SHMIDS_I32, timeout, p, rows, cols, tr, more, seq, stat, errmsg)
    if (.not. more) return
    call c_f_pointer(p, a, [rows, cols])
    if (present(transposed)) transposed = tr
  end subroutine next_i32_2

end module shmids
