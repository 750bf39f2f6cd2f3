// replaced by the solvers
