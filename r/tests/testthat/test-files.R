# shm_write() and shm_read(): ASCII files with reference lines.

test_that("5, 6.1: shm_write() of a table alone; shm-expand gives what write.csv and write.table write", {
  need_tools()
  local_clean()
  need_colmajor_tools()
  d <- data.frame(a = c(1.5, NA, 3), b = c(10L, 20L, 30L), c = c(-0, 1e-20, 2))
  f <- tempfile()
  shm_write(d, f, prefix = P)
  e <- tool("shm-expand", f)
  expect_identical(e$status, 0L)
  g <- tempfile()
  write.csv(d, g, row.names = FALSE)
  expect_identical(read.csv(textConnection(e$out)), read.csv(g))
  # byte for byte but -0, which write.csv writes "0" (shmids: "-0")
  expect_identical(sub(",-0$", ",0", e$out), readLines(g))
  m <- matrix(c(1, 2.25, NA, 4, 5, 6), 2)
  shm_write(m, f, prefix = P)
  e <- tool("shm-expand", f)
  write.table(m, g, row.names = FALSE, col.names = FALSE)
  expect_identical(e$out, readLines(g))
  # in a list, each under its key line
  shm_write(list(d = d, m = m), f, prefix = P)
  e <- tool("shm-expand", f)
  write.csv(d, g, row.names = FALSE)
  expect_identical(sub(",-0$", ",0", e$out[1:5]), c("d", readLines(g)))
  write.table(m, g, row.names = FALSE, col.names = FALSE)
  expect_identical(e$out[6:8], c("m", readLines(g)))
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
  # a table without a key line: its segment's name (shm-import's)
  expect_identical(names(r), c("x", "k", "coeff", paste0(P, "stdin:1")))
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
  # a table's name is its key line's field: the same rules
  expect_error(shm_write(list(`a b` = matrix(1, 1)), f, prefix = P),
               'element "a b": a field is one or more bytes, none a blank')
  expect_error(shm_write(list(`1` = data.frame(a = 1)), f, prefix = P),
               'element "1": a number is never a field')
  expect_error(shm_write(list(a = 1), f, prefix = strrep("p", 64)),
               "longer than 64 bytes")
  labs <- shm_write(list(`1a` = 1, `a#` = 2, `shmidsx` = 3,
                         t1 = matrix(4, 1)), f, prefix = P)
  r <- shm_read(f)
  expect_identical(names(r), c("1a", "a#", "shmidsx", "t1"))
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
  # keyed as shm-import names their segments: source:line
  expect_identical(names(r), paste0(basename(f), c(":3", ":6")))
  expect_identical(r[[1]], data.frame(a = c(1.5, NA), b = c(2, 4)))
  expect_identical(r[[2]], matrix(c(1, 4, 2, 5, 3, 6), 2))
})

test_that("6: shm_read() asks the classifier about comments: '# 1 2 3' is no array '#', a '#' comment ends a table block", {
  f <- tempfile()
  writeLines(c("# 1 2 3", "#x 4 5", "a 1 2", "1 2", "3 4", "# c", "5 6",
               "7 8", "  # 9 /", "b 3"), f)
  r <- shm_read(f)
  expect_identical(names(r), c("a", paste0(basename(f), c(":4", ":7")), "b"))
  expect_identical(r$a, c(1, 2))
  expect_identical(r[[2]], matrix(c(1, 3, 2, 4), 2))
  expect_identical(r[[3]], matrix(c(5, 7, 6, 8), 2))
  expect_identical(r$b, 3)
})

test_that("5, 6.1: keys: every element reads back under its name, whatever the prefix, before and after shm-expand", {
  need_tools()
  local_clean()
  d <- data.frame(a = c(1.5, NA, 3), b = c(10, 20, 30))
  m <- matrix(c(1, 2.25, NA, 4, 5, 6), 3)
  x <- list(v = c(1, 2.5), m = m, d = d, k = 4:6, one = matrix(1:3, 1))
  f <- tempfile()
  shm_write(x, f, prefix = paste0(P, "a-"))
  r <- shm_read(f)
  expect_identical(names(r), names(x))
  expect_identical(r$v[], x$v)
  expect_identical(r$m[, ], m)
  expect_identical(r$d, d)
  expect_identical(r$k[], x$k)
  expect_identical(r$one[, , drop = FALSE], x$one)
  # the ASCII master copy: the same names, the same values
  g <- tempfile()
  writeLines(tool("shm-expand", f)$out, g)
  r <- shm_read(g)
  expect_identical(names(r), names(x))
  expect_identical(r$m, m)
  expect_identical(r$d, d)
  expect_identical(r$k, as.double(x$k))
  # shm-import of that text: the same names again
  h <- tempfile()
  writeLines(tool("shm-import", c("-k", "1", "-P", P), input = readLines(g))$out, h)
  r <- shm_read(h)
  expect_identical(names(r), names(x))
  expect_identical(r$d, d)
  expect_identical(t(r$m[, ]), m)
})

test_that("5, 6.1: keys: a file without key lines has the same names before and after shm-import", {
  need_tools()
  local_clean()
  f <- file.path(tempfile(), "t.txt")
  dir.create(dirname(f))
  writeLines(c("x 1 2 3", "", "1 2", "3 4", "", '"a","b"', "5,6", "7,8"), f)
  before <- shm_read(f)
  expect_identical(names(before), c("x", "t.txt:3", "t.txt:7"))
  g <- tempfile()
  # no -P: shm-import names its segments as the source:line keys say
  im <- tool("shm-import", c("-k", "4", f))
  labs <- sub("^ *shmids,? *", "", grep("^ *shmids", im$out, value = TRUE))
  withr::defer(for (l in labs) try(shm_remove(l), silent = TRUE))
  expect_length(labs, 2)
  writeLines(im$out, g)
  after <- shm_read(g)
  expect_identical(names(after), names(before))
  expect_identical(after[[3]], before[[3]])
  expect_identical(t(after[[2]][, ]), before[[2]])
})

test_that("5, 6.1: a CSV header is the columns' names, never an item; a field alone elsewhere is an empty array", {
  f <- tempfile()
  writeLines(c("e", "", "t", '"p","q"', "1,2", "3,4", "u", "5 6", "7 8",
               "n", "w 1"), f)
  r <- shm_read(f)
  expect_identical(names(r), c("e", "t", "u", "n", "w"))
  expect_identical(r$e, numeric(0))
  expect_identical(r$t, data.frame(p = c(1, 3), q = c(2, 4)))
  expect_identical(r$u, matrix(c(5, 7, 6, 8), 2))
  expect_identical(r$n, numeric(0))
})

test_that("7: shm_read() refuses a compressed file as the tools do", {
  f <- file.path(tempfile(), "d.txt")
  dir.create(dirname(f))
  writeLines("x 1 2 3", f)
  con <- gzfile(paste0(f, ".gz"), "w")
  writeLines("x 1 2 3", con)
  close(con)
  expect_error(shm_read(paste0(f, ".gz")), paste0("^shm_read: ",
    f, ".gz: compressed by gzip: decompress it first: gzip -dc ", f,
    ".gz > ", f, "$"), fixed = FALSE)
  con <- xzfile(paste0(f, ".xz"), "w")
  writeLines("x 1 2 3", con)
  close(con)
  expect_error(shm_read(paste0(f, ".xz")), "compressed by xz: decompress it first: xz -dc ")
  con <- bzfile(file.path(dirname(f), "b"), "w")
  writeLines("x 1 2 3", con)
  close(con)
  expect_error(shm_read(file.path(dirname(f), "b")),
               "compressed by bzip2: .*bzip2 -dc .*/b > .*/b.txt$")
  expect_identical(shm_read(f), list(x = c(1, 2, 3)))
})

test_that("4, 6: shm_write() keeps an integer matrix's dim, NA or not", {
  local_clean()
  f <- tempfile()
  m <- matrix(c(1L, NA, 3L, 4L, 5L, 6L), 3, 2)
  shm_write(list(m = m, n = matrix(1:6, 2)), f, prefix = P)
  r <- shm_read(f)
  expect_identical(r$m[, ], matrix(c(1, NA, 3, 4, 5, 6), 3, 2))
  expect_identical(r$n[, ], matrix(1:6, 2))
})

test_that("4: what has no shmids type is named in the user's terms", {
  local_clean()
  f <- tempfile()
  lab <- shm_create(nm("d0"), data.frame(a = numeric(0), b = numeric(0)))
  expect_identical(dim(shm_attach(lab)), c(0L, 2L))
  expect_identical(typeof(shm_attach(lab)), "double")
  lab <- shm_create(nm("i0"), data.frame(a = 1:2, b = 3:4))
  expect_identical(shm_attach(lab)[, ], matrix(1:4, 2))
  expect_error(shm_write(list(d = data.frame(a = 1:2, f = factor(c("u", "v")))), f, prefix = P),
               '^shm_write: element "d": column "f" is a factor, not numbers \\(its levels are text\\): as.integer\\(\\) gives its codes; only numeric columns are written$')
  expect_error(shm_write(list(d = data.frame(a = 1:2, s = c("u", "v"))), f, prefix = P),
               'column "s" is character \\(not numbers\\)')
  expect_error(shm_write(list(d = data.frame(l = c(TRUE, NA))), f, prefix = P),
               'column "l" is logical \\(as.integer\\(\\) makes it 0/1\\)')
  expect_error(shm_write(list(g = factor("u")), f, prefix = P),
               '^shm_write: element "g": a factor, not numbers')
  expect_error(shm_create(nm("f"), factor("u")), "^shm_create: a factor")
  expect_false(file.exists(f))
})
