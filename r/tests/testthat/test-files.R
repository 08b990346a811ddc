# shm_write() and shm_read(): ASCII files with reference lines.

test_that("5, 6.1: shm_write(); shm-expand gives what write.csv and write.table write", {
  need_tools()
  local_clean()
  need_colmajor_tools()
  d <- data.frame(a = c(1.5, NA, 3), b = c(10L, 20L, 30L), c = c(-0, 1e-20, 2))
  f <- tempfile()
  shm_write(list(d = d), f, prefix = P)
  e <- tool("shm-expand", f)
  expect_identical(e$status, 0L)
  g <- tempfile()
  write.csv(d, g, row.names = FALSE)
  expect_identical(read.csv(textConnection(e$out)), read.csv(g))
  # byte for byte but -0, which write.csv writes "0" (shmids: "-0")
  expect_identical(sub(",-0$", ",0", e$out), readLines(g))
  m <- matrix(c(1, 2.25, NA, 4, 5, 6), 2)
  shm_write(list(m = m), f, prefix = P)
  e <- tool("shm-expand", f)
  write.table(m, g, row.names = FALSE, col.names = FALSE)
  expect_identical(e$out, readLines(g))
})

test_that("5, 6: shm_write() of vectors; integers with NA go as f64 (\"NA\")", {
  need_tools()
  local_clean()
  f <- tempfile()
  labs <- shm_write(list(x = c(1, 2.5), n = c(3L, NA), k = 1:3), f,
                    prefix = P)
  expect_length(labs, 3)
  e <- tool("shm-expand", f)
  expect_identical(e$out, c("x 1 2.5", "n 3 NA", "k 1 2 3"))
  s <- shm_ls()
  expect_identical(s$type[match(labs, s$label)], c("f64", "f64", "i32"))
})

test_that("5, 6, 6.1: shm_read() gives references attached, inline arrays and tables", {
  need_tools()
  local_clean()
  f <- tempfile()
  shm_write(list(x = c(1, 2.5), k = 1:3), f, prefix = P)
  cat("# a comment\n", "coeff 0 1 2 /\n", "   3 4\n", "note see the text\n",
      sep = "", file = f, append = TRUE)
  m <- tool("shm-import", c("-k", "1", "-P", P), input = c("1,2", "3,4"))
  cat(m$out, "\n", sep = "", file = f, append = TRUE)
  r <- shm_read(f)
  expect_identical(names(r), c("x", "k", "coeff", sub("^shmids, *", "", m$out)))
  expect_identical(r$x[], c(1, 2.5))
  expect_identical(r$k[], 1:3)
  expect_identical(r$coeff, c(0, 1, 2, 3, 4))
  expect_identical(t(r[[4]]), matrix(c(1, 2, 3, 4), 2, byrow = TRUE))
  expect_identical(how(r$x), "in place")
})

test_that("7: shm_write() that fails removes the segments it made", {
  local_clean()
  f <- tempfile()
  expect_error(shm_write(list(a = 1, b = "x"), f, prefix = P),
               "double, integer or raw")
  expect_false(any(startsWith(shm_ls()$name, P)))
  expect_error(shm_write(list(1), f), "needs a name")
})

test_that("7: shm_write() that fails leaves no file, or the old one", {
  local_clean()
  d <- tempfile()
  dir.create(d)
  f <- file.path(d, "out.txt")
  expect_error(shm_write(list(a = 1, b = TRUE), f, prefix = P),
               '^shm_write: element "b": logical')
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), character())
  writeLines("old", f)
  expect_error(shm_write(list(a = 1, b = TRUE), f, prefix = P), "logical")
  expect_identical(readLines(f), "old")
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "out.txt")
  expect_false(any(startsWith(shm_ls()$name, P)))
  labs <- shm_write(list(a = 1), f, prefix = P)
  expect_identical(readLines(f), paste("a shmids", labs))
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "out.txt")
  # a symbolic link stays one: its file is written
  file.symlink(f, file.path(d, "ln"))
  labs <- shm_write(list(b = 2), file.path(d, "ln"), prefix = P)
  expect_identical(readLines(f), paste("b shmids", labs))
  expect_true(nzchar(Sys.readlink(file.path(d, "ln"))))
  # a mode kept; two elements of one name, a column name a CSV header
  # cannot hold, no file name: refused before anything is made
  Sys.chmod(f, "0640")
  labs <- shm_write(list(c = 3), f, prefix = P)
  expect_identical(as.character(file.info(f)$mode), "640")
  expect_error(shm_write(list(a = 1, a = 2), f, prefix = P),
               'element "a": two elements of one name')
  df <- data.frame(1:3, 4:6)
  names(df) <- c('a"b', "c")
  expect_error(shm_write(list(t = df), f, prefix = P),
               'element "t": a column name holds a double quote')
  expect_error(shm_write(list(a = 1), "", prefix = P), "a file name")
  expect_identical(readLines(f), paste("c shmids", labs))
})

test_that("5, 6, 6.1: shm_write() refuses a name that would not read back as its line's field (the library's shmids_field_check()), before anything", {
  local_clean()
  d <- tempfile()
  dir.create(d)
  f <- file.path(d, "out.txt")
  bad <- list(
    c("1", 'element "1": a number is never a field \\(a line that begins with a number is a table row\\); name it otherwise'),
    c("nan", 'element "nan": a number is never a field'),
    c("-0.5", "a number is never a field"),
    c("#c", 'element "#c": a comment is never a field \\(a line whose first token begins with # is a comment\\)'),
    c("#", "a comment is never a field"),
    c("shmids", 'element "shmids": the word shmids is never a field'),
    c("shmids,", "the word shmids is never a field"),
    c("3*", "a list-directed null value \\(Fortran's r\\*\\) is never a field"),
    c("3*0.0", "a list-directed repeat count \\(Fortran's r\\*c\\) is never a field"),
    c("0.1+101", "a Fortran exponent without its letter \\(E, D\\) is never a field"),
    c("a b", 'element "a b": a field is one or more bytes, none a blank, CR, LF or NUL'),
    c("# a", "a field is one or more bytes"),
    c("a\tb", "a field is one or more bytes"),
    c("\u00e9", 'name ".*": cannot be a segment name'))
  for (b in bad) {
    x <- list(ok = c(1, 2), 3)
    names(x)[2] <- b[1]
    expect_error(shm_write(x, f, prefix = P), paste0("^shm_write: .*", b[2]))
    expect_false(file.exists(f))
    expect_identical(list.files(d, all.files = TRUE, no.. = TRUE),
                     character())
    expect_false(any(startsWith(shm_ls()$name, P)))
  }
  # a table's name is no field: only its segment name counts
  expect_error(shm_write(list(`a b` = matrix(1, 1)), f, prefix = P),
               'name ".*a b": cannot be a segment name')
  expect_error(shm_write(list(a = 1), f, prefix = strrep("p", 64)),
               "longer than 64 bytes")
  labs <- shm_write(list(`1a` = 1, `a#` = 2, `shmidsx` = 3,
                         `1` = matrix(4, 1)), f, prefix = P)
  r <- shm_read(f)
  expect_identical(names(r)[1:3], c("1a", "a#", "shmidsx"))
  expect_identical(unname(unlist(lapply(r, `[`))), c(1, 2, 3, 4))
})

test_that("7: errors name the function called and the reason: shm_create(\"a b\")", {
  local_clean()
  expect_error(shm_create("a b", c(1, 2)),
               '^shm_create: name "a b": cannot be a segment name \\(1 to 64 bytes of printable ASCII, no blank\\)$')
  expect_error(shm_create(strrep("a", 65), 1),
               "^shm_create: name \"a+\": longer than 64 bytes$")
  expect_error(shm_create(nm("x"), 1, mode = 01000), "^shm_create: mode: ")
  expect_error(shm_zeros("a b", 2), '^shm_zeros: name "a b": ')
  f <- tempfile()
  writeLines("a shmids 2147483646 gone", f)
  expect_error(shm_read(f), paste0("^shm_read: ", f, ": 2147483646 gone: "))
})

test_that("7: shm_ls() has the columns of shm-ls -J; shm_remove()", {
  need_tools()
  local_clean()
  lab <- shm_create(nm("ls"), c(1, 2, 3))
  s <- shm_ls()
  row <- s[s$label == lab, ]
  expect_identical(nrow(row), 1L)
  expect_identical(row$type, "f64")
  expect_identical(row$count, 3)
  expect_identical(row$state, "ready")
  expect_identical(row$mode, "0600")
  j <- tool("shm-ls", "-J")
  keys <- unique(regmatches(paste(j$out, collapse = ""),
    gregexpr('"([a-z_]+)":', paste(j$out, collapse = "")))[[1]])
  keys <- setdiff(gsub('[":]', "", keys), c("segments"))
  expect_true(all(setdiff(names(s), c("created", "attached", "detached")) %in% keys))
  shm_remove(lab)
  expect_false(lab %in% shm_ls()$label)
})

test_that("5, 6.1: shm_read(): a CSV table under its header is a data frame of those names", {
  need_tools()
  local_clean()
  d <- data.frame(a = c(1.5, NA, 3), b = c(10, 20, 30))
  f <- tempfile()
  write.csv(d, f, row.names = FALSE)
  m <- tool("shm-import", c("-k", "1", "-P", P), input = readLines(f))
  writeLines(m$out, f)
  r <- shm_read(f)
  expect_identical(r[[1]], d)
  # R's own: shm_write() of a data frame, read back
  shm_write(list(d = d), f, prefix = P)
  expect_identical(shm_read(f)[[1]], d)
  # no header: the table as shm_attach() gives it (row-major: transposed)
  writeLines(m$out[-1], f)
  expect_identical(t(shm_read(f)[[1]]), unname(as.matrix(d)))
})

test_that("6.1: shm_read(): table rows left as text are a matrix, under a CSV header a data frame", {
  f <- tempfile()
  writeLines(c("# two tables", '"a","b"', "1.5,2", "NA,4", "", "1 2 3", "4 5 6"), f)
  r <- shm_read(f)
  expect_identical(names(r), c("rows", "rows"))
  expect_identical(r[[1]], data.frame(a = c(1.5, NA), b = c(2, 4)))
  expect_identical(r[[2]], matrix(c(1, 4, 2, 5, 3, 6), 2))
})

test_that("6: shm_read() asks the classifier about comments: '# 1 2 3' is no array '#', a '#' comment ends a table block", {
  f <- tempfile()
  writeLines(c("# 1 2 3", "#x 4 5", "a 1 2", "1 2", "3 4", "# c", "5 6",
               "7 8", "  # 9 /", "b 3"), f)
  r <- shm_read(f)
  expect_identical(names(r), c("a", "rows", "rows", "b"))
  expect_identical(r$a, c(1, 2))
  expect_identical(r[[2]], matrix(c(1, 3, 2, 4), 2))
  expect_identical(r[[3]], matrix(c(5, 7, 6, 8), 2))
  expect_identical(r$b, 3)
})
