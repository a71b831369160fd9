"""Exceptions raised by the grit package.

Every error of the C engine comes back as a subclass of :class:`GritError`
carrying the engine's one-line message (which names the parameter, the value
and the valid range). The subclasses also derive from the matching built-in
exception, so ``except ValueError`` catches a bad parameter value.
"""


class GritError(Exception):
    """Base class of all grit errors."""


class LibraryNotFoundError(GritError, ImportError):
    """libgrit.so could not be found or loaded."""


class ParameterError(GritError, ValueError):
    """A parameter or argument is out of range (GRIT_EINVAL)."""


class StateError(GritError, RuntimeError):
    """The call is not valid in the scene's current state (GRIT_ESTATE), or the scene was closed."""


class NumericError(GritError, ArithmeticError):
    """The simulation produced NaN or infinity (GRIT_ENUMERIC); the scene keeps the last good step."""


class GritMemoryError(GritError, MemoryError):
    """The engine ran out of memory (GRIT_ENOMEM)."""


class GritIOError(GritError, OSError):
    """A file could not be read or written (GRIT_EIO)."""


class FormatError(GritError, ValueError):
    """A file is malformed (GRIT_EFORMAT)."""


class StaleViewError(GritError, RuntimeError):
    """A NumPy view of engine memory was used after the engine moved, reordered or resized the array."""


# status code name (as in grit_status) -> exception class
BY_STATUS = {
    "GRIT_EINVAL": ParameterError,
    "GRIT_ENOMEM": GritMemoryError,
    "GRIT_ESTATE": StateError,
    "GRIT_EIO": GritIOError,
    "GRIT_EFORMAT": FormatError,
    "GRIT_ENUMERIC": NumericError,
}
