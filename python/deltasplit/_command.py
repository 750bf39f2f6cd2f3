"""What the sub-commands of ``python -m deltasplit`` share: the exit statuses (the C++ program's)
and the error a sub-command raises for bad input."""
EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class CommandError(Exception):
    """An error in the input or while running (a file named with its line where there is one),
    reported as its message with exit status EXIT_FAILURE."""
