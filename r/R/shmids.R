# shmids: segments as R vectors and matrices, in place.  The C side
# (src/*.c, one concern a file; src/shmids_r.h what they share) calls
# libshmids through shmids.h; format rules are the library's, never
# this file's.

octal_mode <- function(mode) {
  if (is.character(mode)) {
    if (length(mode) != 1L || !grepl("^0?[0-7]{1,3}$", mode))
      stop("mode: octal permissions such as \"0600\" are wanted", call. = FALSE)
    return(strtoi(mode, 8L))
  }
  as.integer(mode)
}

shm_attach <- function(label, timeout = 0, pointer = c("copy", "segment")) {
  pointer <- match.arg(pointer)
  .Call(shmr_attach, label, as.double(timeout), pointer == "segment")
}

shm_zeros <- function(name, dim, type = "f64", mode = "0600") {
  x <- .Call(shmr_zeros, name, as.double(dim), type, octal_mode(mode))
  error_option()
  x
}

shm_seal <- function(x) {
  lab <- .Call(shmr_seal, x)
  error_option()
  invisible(lab)
}

# The end of R by an error (format-spec.md 2.2).  At R's normal end the
# library seals the segments still being filled; at an end by an error
# they are removed.  R tells that end by its error option: while this
# process fills a segment, in a session that is not interactive (an
# error ends it: "Execution halted") and whose user set no option, the
# option is error_end(), which marks the end and gives the option back,
# so that R then ends as it would have (its on.exit code run, "Execution
# halted", status 1), and src/write.c's exit handler removes them.
error_end <- function() {
  .Call(shmr_error_end)
  options(error = NULL)
}

error_option <- function() {
  # options(error = f) holds the call f(), f itself in it
  ours <- identical(getOption("error"), as.call(list(error_end)))
  filling <- .Call(shmr_filling) > 0L
  if (filling && !ours && is.null(getOption("error")) && !interactive())
    options(error = error_end)
  else if (!filling && ours)
    options(error = NULL)
}

shm_label <- function(x) {
  if (inherits(x, "shm_stream"))
    return(.Call(shmr_stream_label, x))
  .Call(shmr_label, x)
}

# The one copy of shm_create(): a data frame's numeric columns as a
# matrix (integer if all are), an integer vector or matrix as i32
# (NA_integer_ is INT_MIN, format-spec.md 6), a double one as f64, raw
# as raw.  What has no shmids type is named in the user's terms.
as_segment_data <- function(x, what) {
  if (is.factor(x))
    stop(what, ": a factor, not numbers (its levels are text): ",
         "as.integer() gives its codes", call. = FALSE)
  if (is.data.frame(x)) {
    for (j in seq_along(x))
      if (!is.numeric(x[[j]]) || is.factor(x[[j]]))
        stop(what, sprintf(': column "%s" is %s', names(x)[j],
             if (is.factor(x[[j]])) paste("a factor, not numbers (its",
               "levels are text): as.integer() gives its codes")
             else if (is.logical(x[[j]])) "logical (as.integer() makes it 0/1)"
             else paste(class(x[[j]])[1L], "(not numbers)")),
             "; only numeric columns are written", call. = FALSE)
    ints <- all(vapply(x, is.integer, TRUE))
    x <- matrix(if (ints) as.integer(unlist(x, use.names = FALSE)) else
                as.double(unlist(x, use.names = FALSE)),
                nrow = nrow(x), ncol = length(x))
  }
  if (is.logical(x))
    stop(what, ": logical vectors have no shmids type (use as.integer())",
         call. = FALSE)
  if (!is.double(x) && !is.integer(x) && !is.raw(x))
    stop(what, ": a double, integer or raw vector or matrix is wanted",
         call. = FALSE)
  if (!is.null(dim(x)) && length(dim(x)) > 2L)
    stop(what, ": at most two dimensions live in a segment", call. = FALSE)
  x
}

shm_create <- function(name, x, mode = "0600") {
  x <- as_segment_data(x, "shm_create")
  .Call(shmr_create, name, x, octal_mode(mode), "shm_create")
}

shm_remove <- function(x) {
  lab <- if (is.character(x)) x else shm_label(x)
  if (is.na(lab))
    stop("shm_remove: a label or a segment object is wanted", call. = FALSE)
  if (is.character(x))
    .Call(shmr_remove, lab)
  else
    .Call(shmr_detach, x)
  error_option()
  invisible(NULL)
}

shm_ls <- function(all = FALSE) {
  d <- .Call(shmr_ls, isTRUE(all))
  d$created <- .POSIXct(d$created, tz = "UTC")
  d$attached <- .POSIXct(d$attached, tz = "UTC")
  d$detached <- .POSIXct(d$detached, tz = "UTC")
  d
}

# shm_read: the file's items, keyed as format-spec.md 5 ("Keys") says:
# a reference or an array by its field; a table by its key line (a
# field alone right above it, or above its CSV header), else by its
# segment's name or, left as text, by "source:line".  A CSV header
# (6.1) names a table's columns: it is no item of its own.
shm_read <- function(file, timeout = 0) {
  r <- .Call(shmr_read, path.expand(file))
  nms <- r[[1L]]
  vals <- r[[2L]]
  drop <- integer()
  for (i in seq_along(vals)) {
    kind <- r[[3L]][i]
    if (kind == "inline")
      next
    # an error in the words of the function called: shm_read
    x <- if (kind == "rows") vals[[i]] else tryCatch(
      shm_attach(vals[[i]], timeout), error = function(e)
        stop("shm_read: ", file, ": ", sub("^shm_attach: ", "",
             conditionMessage(e)), call. = FALSE))
    if (kind != "ref") {
      key <- r[[5L]][i]
      cn <- if (is.na(r[[4L]][i])) NULL else csv_names(r[[4L]][i], x)
      if (!is.null(cn)) {
        x <- csv_frame(x, cn)
        drop <- c(drop, key)   # a field alone as header: no item
        key <- r[[6L]][i]
      }
      if (key > 0L) {
        nms[i] <- nms[key]
        drop <- c(drop, key)
      }
    }
    vals[[i]] <- x
  }
  names(vals) <- nms
  drop <- drop[drop > 0L]
  if (length(drop)) vals[-drop] else vals
}

# The names of a CSV header line for table x, if it has as many as x
# has columns (as R views x: shmr_order "C" is the transpose).
csv_names <- function(head, x) {
  nms <- tryCatch(as.character(unlist(utils::read.csv(text = head,
    header = FALSE, colClasses = "character", strip.white = TRUE))),
    error = function(e) NULL)
  cols <- if (is.null(dim(x))) 1L else
    if (identical(.Call(shmr_order, x), "C")) nrow(x) else ncol(x)
  if (is.null(nms) || length(nms) != cols || anyNA(nms))
    return(NULL)
  nms
}

# A CSV table as a data frame of its header's names (one copy: its
# columns are R's own).  A row-major table (shm-import's) of 2 rows and
# 2 columns or more is attached transposed (shm_attach()); a 1-D one is
# a column.
csv_frame <- function(x, nms) {
  d <- as.data.frame(if (is.null(dim(x))) matrix(x[], ncol = 1L) else
    if (identical(.Call(shmr_order, x), "C")) t(x) else x)
  names(d) <- nms
  d
}

# shm_write: one segment and one line per element, a table's under its
# key line (format-spec.md 5, "Keys"); what shm-expand makes of the file
# of a table alone is what write.table()/write.csv() write.  Every
# element's field and segment name are checked first (by the library's
# classifier, in C), and every segment is made before the file is
# opened, so that a failure leaves the file as it was and no segment.
shm_write <- function(x, file, prefix = "", mode = "0600") {
  alone <- is.data.frame(x) || is.matrix(x) || !is.list(x)
  if (alone)
    x <- list(x = x)
  if (is.null(names(x)) || anyNA(names(x)) || any(names(x) == ""))
    stop("shm_write: every element needs a name", call. = FALSE)
  if (!is.character(prefix) || length(prefix) != 1L || is.na(prefix))
    stop("shm_write: prefix: a single string is wanted", call. = FALSE)
  if (anyDuplicated(names(x)))
    stop(sprintf('shm_write: element "%s": two elements of one name; ',
                 names(x)[anyDuplicated(names(x))]),
         "a name reads back as one field: name each once", call. = FALSE)
  if (!is.character(file) || length(file) != 1L || is.na(file) ||
      !nzchar(file))
    stop("shm_write: file: a file name is wanted", call. = FALSE)
  m <- octal_mode(mode)
  for (f in names(x)) {
    v <- x[[f]]
    # a table's name is its key line's field, as a vector's is its line's
    .Call(shmr_field, if (alone) NULL else f, paste0(prefix, f))
    if (is.data.frame(v) && any(grepl('["\r\n]', names(v))))
      stop(sprintf('shm_write: element "%s": a column name holds a ', f),
           "double quote, CR or LF, which its CSV header line cannot hold",
           call. = FALSE)
  }
  made <- character()
  ok <- FALSE
  con <- NULL
  on.exit({
    if (!is.null(con)) close(con)
    if (!ok)
      for (l in made) try(shm_remove(l), silent = TRUE)
  })
  create <- function(f, v) {
    lab <- .Call(shmr_create, paste0(prefix, f), v, m, "shm_write")
    made <<- c(made, lab)
    lab
  }
  # Every segment made before the file is opened: a failure on the way
  # leaves the file as it was; the file is written as file() writes
  # it (its mode, links and owner kept, a read-only one refused).
  out <- character()
  key <- if (alone) character() else names(x)
  for (f in names(x)) {
    v <- x[[f]]
    what <- sprintf('shm_write: element "%s"', f)
    if (is.integer(v) && anyNA(v))
      storage.mode(v) <- "double"  # written "NA", as write.csv does
    if (is.data.frame(v)) {
      head <- paste0('"', names(v), '"', collapse = ",")
      v <- as_segment_data(v, what)
      if (is.integer(v) && anyNA(v)) storage.mode(v) <- "double"
      out <- c(out, key[key == f], head, paste("shmids,", create(f, v)))
    } else if (is.matrix(v)) {
      out <- c(out, key[key == f],
               paste("shmids", create(f, as_segment_data(v, what))))
    } else {
      v <- as_segment_data(if (is.factor(v)) v else as.vector(v), what)
      out <- c(out, paste(f, "shmids", create(f, v)))
    }
  }
  file <- path.expand(file)
  con <- tryCatch(file(file, "w"), warning = function(w)
    stop("shm_write: ", file, ": ", conditionMessage(w), call. = FALSE),
    error = function(e)
    stop("shm_write: ", file, ": ", conditionMessage(e), call. = FALSE))
  tryCatch(writeLines(out, con), error = function(e) {
    close(con)
    con <<- NULL
    unlink(file)  # its lines name segments that are about to go
    stop("shm_write: ", file, ": ", conditionMessage(e), call. = FALSE)
  })
  close(con)
  con <- NULL
  ok <- TRUE
  invisible(made)
}

# Streams (format-spec.md section 10): a writer publishes copies of R
# vectors and matrices, a reader gets copies of the messages (an R
# vector is a value; the slot is the writer's again after the next
# call).  The handle is an external pointer of class shm_stream, closed
# by shm_close() or when it is collected.
shm_stream <- function(name, slots, capacity, mode = "0600", readers = 1L,
                       overwrite = FALSE, keep = FALSE) {
  flags <- (if (isTRUE(overwrite)) 1L else 0L) + (if (isTRUE(keep)) 2L else 0L)
  s <- .Call(shmr_stream_create, name, as.double(slots), as.double(capacity),
             octal_mode(mode), as.integer(readers), flags)
  structure(s, class = "shm_stream", writer = TRUE)
}

shm_publish <- function(s, x, timeout = Inf) {
  x <- as_segment_data(x, "shm_publish")
  if (!is.null(dim(x)) && length(dim(x)) == 1L)
    x <- as.vector(x)
  .Call(shmr_publish, s, x, as.double(timeout))
}

shm_follow <- function(label, timeout = Inf, new = FALSE) {
  s <- .Call(shmr_stream_open, label, as.double(timeout), isTRUE(new))
  structure(s, class = "shm_stream", writer = FALSE)
}

shm_next <- function(s, timeout = Inf) {
  .Call(shmr_next, s, as.double(timeout))
}

shm_close <- function(s) {
  invisible(.Call(shmr_stream_close, s))
}

print.shm_stream <- function(x, ...) {
  cat("<shm_stream ", if (isTRUE(attr(x, "writer"))) "writer" else "reader",
      " '", tryCatch(shm_label(x), error = function(e) "closed"), "'>\n",
      sep = "")
  invisible(x)
}
