# Across languages: numpy writes, R attaches; R writes, numpy attaches.

test_that("4, 6: numpy writes, R attaches: values, NA, -0 and NaN payloads identical", {
  need_py()
  local_clean()
  out <- py(paste(sep = "\n",
    "import os, numpy, shmids",
    "P = os.environ['P']",
    "f = numpy.array([1.5, 0.0, -0.0, numpy.inf], dtype='<f8')",
    "b = f.view('<u8')",
    "b[1] = 0x7ff00000000007a2   # R's NA",
    "f = numpy.append(f, numpy.array([0x7ff8000000001234], dtype='<u8').view('<f8'))",
    "i = numpy.array([1, -2147483648, 2147483647], dtype='<i4')",
    "r = numpy.array([0, 7, 255], dtype='u1')",
    "for n, a in (('f', f), ('i', i), ('r', r)):",
    "    print(shmids.create(P + n, a))"))
  f <- shm_attach(out[1])
  expect_identical(bits(f[]), c("3ff8000000000000", "7ff00000000007a2",
    "8000000000000000", "7ff0000000000000", "7ff8000000001234"))
  expect_true(is.na(f[2]) && !is.nan(f[2]))
  expect_identical(shm_attach(out[2])[], c(1L, NA, .Machine$integer.max))
  expect_identical(shm_attach(out[3])[], as.raw(c(0, 7, 255)))
})

test_that("2.7: numpy's C-order matrix attaches in R as its transpose, no copy", {
  need_py()
  local_clean()
  lab <- py(paste(sep = "\n", "import os, numpy, shmids",
    "a = numpy.arange(6, dtype='f8').reshape(2, 3)  # C order",
    "print(shmids.create(os.environ['P'] + 'm', a))"))
  x <- shm_attach(lab)
  expect_identical(dim(x), c(3L, 2L))
  expect_identical(how(x), "in place")
  expect_identical(t(x), matrix(as.double(0:5), 2, byrow = TRUE))
})

test_that("4: R writes, numpy attaches: values and NA bits identical", {
  need_py()
  local_clean()
  lab <- shm_create(nm("v"), c(1.5, NA, -0, NaN))
  out <- py(paste(sep = "\n", "import sys, shmids",
    "a = shmids.attach(sys.argv[1])",
    "print(a.dtype, a.shape, ' '.join('%016x' % b for b in a.view('<u8')))"),
    shQuote(lab))
  expect_identical(out, paste("float64 (4,)",
    paste(bits(c(1.5, NA, -0, NaN)), collapse = " ")))
})

test_that("2.7: R writes a matrix, numpy attaches the matrix R meant", {
  need_py()
  local_clean()
  need_colmajor_py()
  m <- matrix(as.double(1:6), 2)
  lab <- shm_create(nm("m"), m)
  out <- py(paste(sep = "\n", "import sys, shmids",
    "a = shmids.attach(sys.argv[1])",
    "print(a.shape, a.tolist())"), shQuote(lab))
  expect_identical(out, "(2, 3) [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]")
})

test_that("2.7: R attaches its own matrix as it was, no copy", {
  local_clean()
  m <- matrix(as.double(1:6), 2)
  x <- shm_attach(shm_create(nm("m"), m))
  expect_identical(x[, ], m)
  expect_identical(dim(x), c(2L, 3L))
  expect_identical(how(x), "in place")
})
