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

  interface
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

end module shmids
