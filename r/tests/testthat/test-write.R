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
