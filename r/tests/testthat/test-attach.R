# shm_attach(): ALTREP vectors over the segment, no copy.

test_that("6: f64 values, R's NA, NaN payloads and -0 arrive as written", {
  local_clean()
  x <- c(1.5, NA, NaN, -0, Inf, -Inf, 1e-300, .Machine$double.xmax)
  # a NaN with a payload, and R's NA quieted by arithmetic
  x <- c(x, readBin(as.raw(c(0x7f, 0xf8, 0, 0, 0, 0, 0x12, 0x34)),
                    "double", endian = "big"), NA_real_ + 1)
  lab <- shm_create(nm("f"), x)
  a <- shm_attach(lab)
  expect_identical(bits(a[]), bits(x))
  expect_true(is.na(a[2]) && !is.nan(a[2]))
  expect_true(is.nan(a[3]))
  expect_identical(1 / a[4], -Inf)
  expect_identical(length(a), length(x))
  expect_null(dim(a))
  expect_identical(how(a), "in place")
})

test_that("4, 6: i32 is integer (INT32_MIN is NA_integer_), raw is raw", {
  local_clean()
  i <- c(1L, NA, -5L, .Machine$integer.max)
  a <- shm_attach(shm_create(nm("i"), i))
  expect_identical(typeof(a), "integer")
  expect_identical(a[], i)
  r <- as.raw(c(0, 1, 255))
  b <- shm_attach(shm_create(nm("r"), r))
  expect_identical(typeof(b), "raw")
  expect_identical(b[], r)
})

test_that("6: i32 NA round-trips through the ASCII form -2147483648", {
  need_tools()
  local_clean()
  lab <- shm_create(nm("i"), c(7L, NA))
  e <- tool("shm-expand", input = paste("v shmids", lab))
  expect_identical(e$out, "v 7 -2147483648")
  m <- tool("shm-import", c("-k", "1", "-t", "i32", "-P", P), input = e$out)
  expect_identical(m$status, 0L)
  back <- shm_attach(sub("^v shmids ", "", m$out))
  expect_identical(back[], c(7L, NA))
})

test_that("4: f32 and i64 come as doubles, one copy (NA kept)", {
  need_tools()
  local_clean()
  f <- tool("shm-import", c("-k", "1", "-t", "f32", "-P", P),
            input = "a 1.5 NA -0 0.1")
  a <- shm_attach(sub("^a shmids ", "", f$out))
  expect_identical(a[1:3], c(1.5, NA, -0))
  expect_identical(a[4], 0.100000001490116119384765625)
  # a copy, not an ALTREP vector over the segment
  expect_false(grepl("shmids", utils::capture.output(
    .Internal(inspect(a)))[1]))
  g <- tool("shm-import", c("-k", "1", "-t", "i64", "-P", P),
            input = "b 1 -9007199254740992 -9223372036854775808")
  b <- shm_attach(sub("^b shmids ", "", g$out))
  expect_identical(b[], c(1, -9007199254740992, NA))
})

test_that("2.7: a row-major table attaches as its transpose, no copy", {
  need_tools()
  local_clean()
  m <- tool("shm-import", c("-k", "1", "-P", P), input = c("1,2,3", "4,5,6"))
  x <- shm_attach(sub("^shmids, *", "", m$out))
  expect_identical(dim(x), c(3L, 2L))
  expect_identical(how(x), "in place")
  expect_identical(x[, 2], c(4, 5, 6))
  expect_identical(how(x), "in place")
  # colSums() asks R for a writable pointer: x becomes a copy ...
  expect_identical(colSums(x), c(6, 15))
  expect_identical(how(x), "copied")
  # ... unless attached with pointer = "segment"
  y <- shm_attach(shm_label(x), pointer = "segment")
  expect_identical(colSums(y), c(6, 15))
  expect_identical(y == 3, matrix(c(FALSE, FALSE, TRUE, rep(FALSE, 3)), 3))
  expect_identical(how(y), "in place, pointer")
  z <- y
  z[1, 1] <- 100
  expect_identical(y[1, 1], 1)
  expect_identical(shm_attach(shm_label(x))[1], 1)
  # t() asks R for a writable pointer: x becomes a copy (documented)
  expect_identical(t(x), matrix(as.double(1:6), 2, byrow = TRUE))
})

test_that("2.5: 10^7 doubles attach without R allocating them; sum, mean, [ read in place", {
  local_clean()
  n <- 1e7
  lab <- shm_create(nm("big"), as.double(seq_len(n)))
  invisible(gc(reset = TRUE))
  v0 <- gc()[2, 1]
  a <- shm_attach(lab)
  expect_identical(sum(a), n * (n + 1) / 2)
  expect_identical(mean(a), (n + 1) / 2)
  expect_identical(a[c(1, n)], c(1, n))
  expect_identical(max(a), n)
  expect_identical(how(a), "in place")
  # Vcells are 8 bytes: 10^7 doubles would be 10^7 of them.
  expect_lt(gc()[2, 1] - v0, 1e6)
})

test_that("writing an attached vector writes a private copy, never the segment", {
  local_clean()
  lab <- shm_create(nm("c"), c(1, 2, 3))
  a <- shm_attach(lab)
  b <- a
  b[2] <- 20
  expect_identical(b, c(1, 20, 3))
  expect_identical(a[], c(1, 2, 3))
  a[1] <- 10
  expect_identical(a[], c(10, 2, 3))
  expect_identical(how(a), "copied")
  expect_identical(shm_attach(lab)[], c(1, 2, 3))
})

test_that("serialize() and saveRDS() write an ordinary vector", {
  local_clean()
  a <- shm_attach(shm_create(nm("s"), c(1, NA, 3)))
  f <- tempfile()
  saveRDS(a, f)
  lab <- shm_label(a)
  shm_remove(lab)
  expect_identical(readRDS(f), c(1, NA, 3))
  expect_identical(unserialize(serialize(a, NULL)), c(1, NA, 3))
})

test_that("2.2: the segment stays attached while an R object refers to it", {
  local_clean()
  lab <- shm_create(nm("k"), c(4, 5))
  a <- shm_attach(lab)
  b <- a + 0
  d <- a
  rm(a)
  invisible(gc())
  expect_identical(d[], c(4, 5))
  s <- shm_ls()
  expect_identical(s$nattch[s$label == lab], 1)
  rm(d)
  invisible(gc())
  s <- shm_ls()
  expect_identical(s$nattch[s$label == lab], 0)
})

test_that("2.3: errors are the tools' words", {
  need_tools()
  e <- tool("shm-expand", input = "x shmids 999999 nothing")
  why <- sub("^shm-expand: stdin:1: 999999 nothing: ", "", e$err[1])
  expect_error(shm_attach("999999 nothing"),
               paste0("shm_attach: 999999 nothing: ", why), fixed = TRUE)
  expect_error(shm_attach(c("a", "b")), "a single string")
  expect_error(shm_attach("1 x", timeout = -1), "timeout")
})

test_that("2.2: attach with a timeout waits for a segment sealed later", {
  local_clean()
  f <- tempfile()
  rs <- file.path(R.home("bin"), "Rscript")
  code <- sprintf(paste(
    "library(shmids); w <- shm_zeros('%s', 3);",
    "writeLines(shm_label(w), '%s.tmp'); file.rename('%s.tmp', '%s');",
    "Sys.sleep(1); w[] <- c(7, 8, 9); shm_seal(w); Sys.sleep(3)"),
    nm("late"), f, f, f)
  system2(rs, c("-e", shQuote(code)), wait = FALSE, stdout = FALSE,
          env = paste0("R_LIBS=", paste(.libPaths(), collapse = ":")))
  for (i in 1:100) if (file.exists(f)) break else Sys.sleep(0.1)
  lab <- readLines(f)
  expect_error(shm_attach(lab), "still being written")
  t0 <- Sys.time()
  a <- shm_attach(lab, timeout = 20)
  expect_identical(a[], c(7, 8, 9))
  expect_lt(as.double(Sys.time() - t0, units = "secs"), 10)
})
