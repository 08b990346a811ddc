library(testthat)
library(shmids)
test_check("shmids")
