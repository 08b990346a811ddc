# Streams (format-spec.md section 10, message references 5.1): R
# publishes and reads copies; numpy reads what R wrote and back.

gone <- function(lab) !(lab %in% shm_ls()$label)

test_that("10.3, 10.5: R publishes vectors and matrices, R reads each, in order, then the end; the stream goes", {
  local_clean()
  s <- shm_stream(nm("s"), slots = 4, capacity = 800)
  lab <- shm_label(s)
  expect_match(lab, paste0("^[0-9]+ ", P, "s$"))
  expect_identical(shm_publish(s, c(1.5, NA, -0)), 0)
  expect_identical(shm_publish(s, matrix(1:6, 2)), 1)
  expect_identical(shm_publish(s, as.raw(c(0, 255))), 2)
  expect_identical(sprintf("u shmids %s %.0f", lab, 2), paste("u shmids", lab, 2))
  shm_close(s)
  r <- shm_follow(lab, timeout = 5)
  x <- shm_next(r, 0)
  expect_identical(attr(x, "seq"), 0)
  expect_identical(as.vector(x), c(1.5, NA, -0))
  x <- shm_next(r, 0)
  expect_identical(dim(x), c(2L, 3L))
  expect_identical(as.vector(x), 1:6)
  expect_identical(as.vector(shm_next(r, 0)), as.raw(c(0, 255)))
  expect_null(shm_next(r, 0))
  expect_null(shm_next(r, 0))
  shm_close(r)
  expect_true(gone(lab))
  expect_error(shm_next(r), "shm_next: the stream is closed")
})

test_that("10.8: R's errors are the library's words", {
  local_clean()
  s <- shm_stream(nm("e"), slots = 2, capacity = 16)
  lab <- shm_label(s)
  expect_error(shm_publish(s, 1:5),
    paste0("shm_publish: ", lab, ": a message larger than the 16 bytes ",
           "each slot of stream ", sub(" .*", "", lab), " holds"), fixed = TRUE)
  r <- shm_follow(lab)
  expect_error(shm_next(r, 0.05), paste0("shm_next: ", lab, ": stream .* is live"))
  expect_error(shm_follow(nm("nolabel")), "shm_follow: ")
  expect_error(shm_next(s), "shm_next: ")
  shm_close(s)
  expect_null(shm_next(r))
  shm_close(r)
  expect_true(gone(lab))
})

test_that("10.3, 5.1: R writes a stream, numpy follows it; numpy writes one, R reads it; the same reference lines", {
  need_py()
  local_clean()
  s <- shm_stream(nm("r"), slots = 8, capacity = 48)
  lab <- shm_label(s)
  ref <- character()
  for (k in 0:4)
    ref <- c(ref, sprintf("u shmids %s %.0f", lab,
                          shm_publish(s, matrix(as.double(1:6) + k, 2))))
  shm_close(s)
  out <- py(paste(sep = "\n", "import sys, shmids",
    "f = shmids.follow(sys.argv[1])",
    "for a in f:",
    "    print('u shmids %s %d' % (f.label, f.seq), a.tolist())"),
    shQuote(lab))
  expect_identical(out, paste(ref, sprintf("[[%d.0, %d.0, %d.0], [%d.0, %d.0, %d.0]]",
    1:5, 3:7, 5:9, 2:6, 4:8, 6:10)))
  expect_true(gone(lab))
  lab <- py(paste(sep = "\n", "import os, numpy, shmids",
    "w = shmids.stream(os.environ['P'] + 'p', 4, 64)",
    "w.publish(numpy.arange(6, dtype='i4').reshape(2, 3))",
    "w.publish(numpy.array([2.5, 3.5], dtype='f4'))",
    "w.close()",
    "print(w.label)"))
  r <- shm_follow(lab, timeout = 5)
  expect_identical(shm_next(r)[, ], matrix(0:5, 2, byrow = TRUE))
  expect_identical(as.vector(shm_next(r)), c(2.5, 3.5))
  expect_null(shm_next(r))
  shm_close(r)
  expect_true(gone(lab))
})

test_that("5.1: shm_read() of a message reference line says to follow the stream", {
  local_clean()
  s <- shm_stream(nm("m"), slots = 2, capacity = 24)
  lab <- shm_label(s)
  f <- tempfile()
  writeLines(sprintf("u shmids %s %.0f", lab, shm_publish(s, c(1, 2, 3))), f)
  expect_error(shm_read(f), paste0("line 1: a stream's message \\(", lab,
    " 0\\): shm_read\\(\\) reads segments; read the stream with shm_follow\\(\\)"))
  shm_close(s)
  unlink(f)
})
