"""Stand-ins for Cython's pure-Python-mode names, where Cython is not installed.

The hot modules declare C types for their inner loops the way Cython's pure-Python mode
spells them (``@cython.locals(k=cython.int, p=cython.p_uchar)``): the same ``.py`` file runs
as Python and compiles to C with those types (``setup.py``). A typed module starts with

    try:
        import cython
    except ImportError:  # the pure package without Cython: the declarations do nothing
        from cnmahjong.envs.core import no_cython as cython

The compiled module never runs that import (Cython resolves ``cython.*`` at compile time); a
pure run with Cython installed gets Cython's own shadow module, and one without it gets this
one. Only the names the hot modules use are here (``tests/test_typed.py`` checks that every
``cython.NAME`` they use is), so a misspelt declaration fails in the pure run too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

compiled = False
"""What ``cython.compiled`` says when the module runs as Python."""

int = int  # noqa: A001 - the C ``int`` (a Python int when run as Python)
uchar = int
bint = bool
"""C ``bint``: a truth value (a Python bool)."""
longlong = int
ulonglong = int
Py_ssize_t = int
double = float
"""C ``double`` (a Python float)."""
p_uchar = bytes
"""``unsigned char *``: a pointer into a ``bytes``/``bytearray`` (the object itself as Python)."""


def cfunc(function: Callable) -> Callable:
    """``@cython.cfunc``: a C function (called from C only); a plain function as Python."""
    return function


inline = cfunc
"""``@cython.inline``: the C function inlined; a plain function as Python."""

ccall = cfunc
"""``@cython.ccall`` (cpdef): a C function also callable from Python; a plain function as Python."""


def returns(type_: Any) -> Callable[[Callable], Callable]:
    """``@cython.returns(type)``: a C function's return type; nothing as Python."""
    return lambda function: function


def cast(type_: Any, value: Any) -> Any:
    """``cython.cast(type, value)``: a C cast; the value itself as Python."""
    return value


NULL = None
"""``cython.NULL``: the C null pointer (None as Python; read only on compiled paths)."""


def address(value: Any) -> Any:
    """``cython.address(x)``: a C pointer to ``x`` (``&x``); the value itself as Python."""
    return value


def locals(**types: Any) -> Callable[[Callable], Callable]:  # noqa: A001 - Cython's name
    """``@cython.locals(name=type, ...)``: C types of a function's locals; nothing as Python."""
    return lambda function: function
