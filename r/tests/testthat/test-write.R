# shm_zeros(), shm_seal(), shm_create(), shm_remove(): R writes segments.

test_that("2.2: shm_zeros() is filled in place: the segment gets the values", {
  need_tools()
  local_clean()
  w <- shm_zeros(nm("w"), 5)
  expect_identical(how(w), "read-write, filling")
  w[] <- c(1, 2, 3, 4, 5) * 2
  w[3] <- NA
  w[[4]] <- -0
  expect_identical(how(w), "read-write, filling")
  lab <- shm_seal(w)
  expect_identical(how(w), "read-write")
  # another process reads the segment, not R's object
  e <- tool("shm-expand", input = paste("v shmids", lab))
  expect_identical(e$out, "v 2 4 NA -0 10")
})

test_that("2.2: i32 and raw are filled in place too", {
  need_tools()
  local_clean()
  w <- shm_zeros(nm("i"), 3, type = "i32")
  w[] <- c(5L, NA, 7L)
  r <- shm_zeros(nm("r"), 2, type = "raw")
  r[] <- as.raw(c(1, 255))
  e <- tool("shm-expand", input = c(paste("i shmids", shm_seal(w)),
                                    paste("r shmids", shm_seal(r))))
  expect_identical(e$out, c("i 5 -2147483648 7", "r 1 255"))
})

test_that("2.2: till the seal every copy R makes is the segment; after, a copy", {
  local_clean()
  w <- shm_zeros(nm("c"), 3)
  f <- function(x) x[1]
  f(w)              # a call may leave w referenced: R duplicates it
  w[] <- c(1, 2, 3)
  v <- w            # shared: reference semantics while filling
  v[1] <- 100
  expect_identical(w[], c(100, 2, 3))
  lab <- shm_seal(w)
  w[2] <- 200       # sealed: R's copy-on-write again
  expect_identical(w[], c(100, 200, 3))
  expect_identical(how(w), "copied")
  expect_identical(shm_attach(lab)[], c(100, 2, 3))
})

test_that("2.2: an error before the seal removes the segment (on.exit)", {
  local_clean()
  fill <- function() {
    w <- shm_zeros(nm("e"), 3)
    sealed <- FALSE
    on.exit(if (!sealed) shm_remove(w))
    w[] <- 1:3
    stop("failed while filling")
    shm_seal(w)
    sealed <- TRUE
  }
  expect_error(fill(), "failed while filling")
  expect_false(any(startsWith(shm_ls()$name, nm("e"))))
})

test_that("2.2: a segment collected unsealed is removed, never sealed half filled", {
  local_clean()
  f <- function() { w <- shm_zeros(nm("g"), 3); shm_label(w) }
  lab <- f()
  invisible(gc())
  expect_false(lab %in% shm_ls()$label)
})

test_that("2.2: a killed R writer leaves a dead segment", {
  need_tools()
  local_clean()
  f <- tempfile()
  rs <- file.path(R.home("bin"), "Rscript")
  code <- sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "writeLines(shm_label(w), '%s.tmp'); file.rename('%s.tmp', '%s');",
    "Sys.sleep(60)"), nm("dead"), f, f, f)
  pidf <- tempfile()
  system(sprintf("R_LIBS=%s %s -e %s >/dev/null 2>&1 & echo $! > %s",
                 shQuote(paste(.libPaths(), collapse = ":")), rs,
                 shQuote(code), pidf))
  for (i in 1:100) if (file.exists(f)) break else Sys.sleep(0.1)
  lab <- readLines(f)
  tools::pskill(as.integer(readLines(pidf)), tools::SIGKILL)
  Sys.sleep(0.5)
  s <- shm_ls()
  expect_identical(s$state[s$label == lab], "dead")
  expect_error(shm_attach(lab), "died before sealing")
  r <- tool("shm-rm", c("-s", "0", "-N", paste0(P, "*")))
  expect_identical(r$status, 0L)
  expect_false(lab %in% shm_ls()$label)
})

test_that("4: shm_create() copies once, and refuses what has no type", {
  local_clean()
  lab <- shm_create(nm("x"), c(3, 1, 2))
  expect_identical(shm_attach(lab)[], c(3, 1, 2))
  expect_error(shm_create(nm("l"), c(TRUE, FALSE)), "logical")
  expect_error(shm_create(nm("s"), "a"), "double, integer or raw")
  expect_error(shm_create(nm("a"), array(1, c(1, 1, 1))), "two dimensions")
  expect_error(shm_zeros(nm("t"), 3, type = "f32"), "R has no f32")
  expect_error(shm_zeros("bad name", 3), "shm_zeros: ")
  expect_error(shm_seal(c(1, 2)), "not a segment attached by shmids")
  expect_error(shm_seal(shm_attach(lab)), "attached read-only")
  shm_remove(lab)
  expect_error(shm_remove(lab), "shm_remove: ")
})

# rscript(CODE): run CODE in a new Rscript of this library; its status,
# stdout and stderr lines.
rscript <- function(code, env = character()) {
  ef <- tempfile()
  on.exit(unlink(ef))
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"),
    c("-e", shQuote(code)), stdout = TRUE, stderr = ef,
    env = c(paste0("R_LIBS=", paste(.libPaths(), collapse = ":")), env)))
  st <- attr(out, "status")
  list(status = if (is.null(st)) 0L else st, out = as.character(out),
       err = readLines(ef))
}

test_that("2.2: the end of an Rscript seals what it fills; an error that ends it removes it, said on stderr; an error option of its user decides", {
  need_tools()
  local_clean()
  r <- rscript(sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "w[] <- 1:3; writeLines(shm_label(w))"), nm("n")))
  expect_identical(r$status, 0L)
  e <- tool("shm-expand", input = paste("v shmids", r$out))
  expect_identical(e$out, "v 1 2 3")
  r <- rscript(sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "writeLines(shm_label(w)); f <- function() { on.exit(cat('on.exit\\n'));",
    "stop('boom') }; f()"), nm("e")))
  expect_identical(r$status, 1L)
  expect_identical(r$out, c(r$out[1], "on.exit"))
  expect_identical(r$err, c("Error in f() : boom", "Execution halted",
    paste0("shmids: ", r$out[1], ": removed, never sealed: the program ",
           "ends by an uncaught error")))
  expect_false(r$out[1] %in% shm_ls()$label)
  # quit(status = 1) is a normal end, as C's exit(1)
  r <- rscript(sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "writeLines(shm_label(w)); quit(status = 1)"), nm("q")))
  expect_identical(r$status, 1L)
  expect_identical(shm_ls()$state[shm_ls()$label == r$out], "ready")
  # the user's error option decides: here it quits, a normal end
  r <- rscript(sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "writeLines(shm_label(w)); options(error = function() quit(status = 3));",
    "stop('boom')"), nm("o")))
  expect_identical(r$status, 3L)
  expect_identical(shm_ls()$state[shm_ls()$label == r$out], "ready")
  # sealed, the option is the user's again; an error then removes nothing
  r <- rscript(sprintf(paste("library(shmids); w <- shm_zeros('%s', 3);",
    "print(is.null(getOption('error'))); shm_seal(w);",
    "print(is.null(getOption('error'))); writeLines(shm_label(w));",
    "stop('late')"), nm("s")))
  expect_identical(r$status, 1L)
  expect_identical(r$out[1:2], c("[1] FALSE", "[1] TRUE"))
  expect_identical(shm_ls()$state[shm_ls()$label == r$out[3]], "ready")
})

test_that("2.2: a child forked by mcparallel() that quits leaves the parent's segment filling; its seal and remove are errors", {
  skip_if_not(.Platform$OS.type == "unix")
  local_clean()
  w <- shm_zeros(nm("fork"), 3)
  j <- parallel::mcparallel(quit(save = "no"))
  suppressWarnings(parallel::mccollect(j))
  # the child's quit() removed the session's tempdir(), which it shares
  invisible(tempdir(check = TRUE))
  s <- shm_ls()
  expect_identical(s$state[s$label == shm_label(w)], "filling")
  j <- parallel::mcparallel(tryCatch(shm_seal(w), error = conditionMessage))
  said <- parallel::mccollect(j)[[1]]
  expect_match(said, paste0("^shm_seal: ", shm_label(w), ": in pid [0-9]+, ",
    "a process forked from its writer \\(pid ", Sys.getpid(), "\\): only ",
    "the writer seals or removes it$"))
  j <- parallel::mcparallel(tryCatch(shm_remove(w), error = conditionMessage))
  said <- parallel::mccollect(j)[[1]]
  expect_match(said, "^shm_remove: .*only the writer")
  # the child's garbage collector leaves it alone too
  j <- parallel::mcparallel({ rm(w); invisible(gc()); 1 })
  parallel::mccollect(j)
  w[] <- c(7, 8, 9)
  lab <- shm_seal(w)
  expect_identical(shm_attach(lab)[], c(7, 8, 9))
})

test_that("2.2: an assignment R would make into a copy of another type is an error at the assignment, the segment kept", {
  local_clean()
  w <- shm_zeros(nm("co"), 4, type = "i32")
  expect_error(w[] <- c(1.5, 2, 3, 4), paste0("^shmids: ", shm_label(w),
    ": a segment being filled holds i32: not made a double vector, which ",
    "R would fill instead of the segment: assign it integer values ",
    "\\(as.integer\\(\\)\\), or convert it after shm_seal\\(\\)$"))
  expect_error(w[[2]] <- 2.5, "not made a double vector")
  expect_error(w[1] <- "a", "not made a character vector")
  d <- shm_zeros(nm("cd"), 2)
  expect_error(d[1] <- "a", "holds f64: not made a character vector.*as.double")
  d[] <- 1:2         # integers into f64: R converts the values, not d
  expect_identical(how(d), "read-write, filling")
  expect_identical(how(w), "read-write, filling")
  w[] <- as.integer(c(1.5, 2, 3, 4))
  lab <- shm_seal(w)
  expect_identical(as.double(w), c(1, 2, 3, 4))
  expect_identical(shm_attach(lab)[], 1:4)
  shm_seal(d)
})

test_that("2.7: a matrix of one row or one column comes back as the matrix it was, dim c(rows, cols)", {
  local_clean()
  for (m in list(matrix(1:3, 1, 3), matrix(1:3, 3, 1), matrix(c(1.5, 2), 1),
                 matrix(numeric(0), 0, 3), matrix(7L, 1, 1))) {
    lab <- shm_create(nm("rc"), m)
    x <- shm_attach(lab)
    expect_identical(dim(x), dim(m))
    expect_identical(x[, , drop = FALSE], m)
    w <- shm_zeros(nm("rz"), dim(m), type = if (is.integer(m)) "i32" else "f64")
    w[] <- m
    expect_identical(shm_attach(shm_seal(w))[, , drop = FALSE], m)
    shm_remove(lab)
  }
})

test_that("2.6, 7: a SHMIDS_DIR that is missing gets the tools' hint from shm_zeros(), shm_create() and shm_ls()", {
  local_clean()
  d <- file.path(tempfile(), "none")
  withr::local_envvar(SHMIDS_DIR = d)
  # the library quotes a setting's first 80 bytes, then "..." (as the
  # tools do); the command to paste is whole (R CMD check's long tempdir)
  q <- if (nchar(d) > 80) paste0(substr(d, 1, 80), "...") else d
  hint <- paste0("SHMIDS_DIR ", q, " does not exist: 'mkdir -p ", d,
                 "' (mode 1777 to share it), or unset SHMIDS_DIR for ",
                 "System V segments")
  expect_error(shm_zeros(nm("nd"), 3), hint, fixed = TRUE)
  expect_error(shm_create(nm("nd"), c(1, 2)), hint, fixed = TRUE)
  expect_error(shm_ls(), paste0("shm_ls: ", hint), fixed = TRUE)
  need_tools()
  expect_identical(tool("shm-ls")$err, paste0("shm-ls: ", hint))
})
