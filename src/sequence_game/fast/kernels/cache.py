"""Keying Numba's disk cache of a kernel to the sources of every module it depends on.

Numba keys a cached kernel to its own source file only, but kernels inline and call those of
other modules (the row offsets of :mod:`.layout` are compiled in as constants by every kernel
of the package): after a change there, they would load stale machine code. So a kernel of the
``fast`` package is keyed to the contents of its own module and of every module of the package
that it imports, directly or not (Numba's own cache locators, with that one stamp): editing one
module recompiles the kernels of the modules that import it and no others.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Container
from typing import Any, Final

#: The ``fast`` package's folder: every kernel defined under it is keyed so.
FOLDER: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _module_name(path: str) -> str:
    """A source file's module, relative to the ``fast`` package: ``heuristic.scoring`` for
    ``fast/heuristic/scoring.py``, ``kernels`` for ``fast/kernels/__init__.py``, ``""`` for the
    package's own ``__init__``."""
    parts = os.path.relpath(path, FOLDER)[: -len(".py")].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _read_sources() -> dict[str, tuple[bool, bytes]]:
    """Per module of the package, whether it is a package's ``__init__`` and its source, read
    once: the stamps are those of the code this process imported."""
    sources: dict[str, tuple[bool, bytes]] = {}
    for folder, subfolders, files in os.walk(FOLDER):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, "rb") as source:
                    sources[_module_name(path)] = (name == "__init__.py", source.read())
    return sources


#: A relative import: its dots, its module and what it imports (in parentheses, over lines).
_IMPORT: Final = re.compile(
    rb"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE
)


def _imports(module: str, is_package: bool, source: bytes, modules: Container[str]) -> list[str]:
    """The ``modules`` of the package that ``module`` imports with relative imports (``from .
    import kernels as k``, ``from ..kernels import ROW``, ``from .windows import (...)``, in
    functions too): the module imported from, or the imported names that are modules. A
    regular expression, not ``ast``: this runs at every start, and parsing took a tenth of a
    second."""
    package = module.split(".") if module else []
    if not is_package:
        package = package[:-1]
    found: list[str] = []
    for dots, name, what in _IMPORT.findall(source):
        up = len(dots) - 1
        if up > len(package):
            continue  # above the fast package (``from ..cards import ...``): no kernels there
        target = ".".join(package[: len(package) - up] + (name.decode().split(".") if name else []))
        lines = [line.split(b"#")[0] for line in what.strip(b"()").splitlines()]
        for part in b",".join(lines).split(b","):
            if not part.strip():
                continue
            sub = part.split()[0].decode()
            full = f"{target}.{sub}" if target else sub
            found.append(full if not name and full in modules else target)
    return list(dict.fromkeys(found))


def register_package_cache() -> None:
    """Put the package's cache locators first in Numba's list (once per process)."""
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - a Numba without these classes: its own keys
        return
    locators = getattr(getattr(caching, "CacheImpl", None), "_locator_classes", None)
    if not isinstance(locators, list):  # pragma: no cover
        return
    sources = _read_sources()
    imported: dict[str, list[str]] = {}

    def stamp_of(module: str) -> str:
        seen: set[str] = set()
        todo = [module]
        while todo:
            name = todo.pop()
            if name in seen or name not in sources:
                continue
            seen.add(name)
            if name not in imported:
                imported[name] = _imports(name, *sources[name], sources)
            todo.extend(imported[name])
        digest = hashlib.sha256()
        for name in sorted(seen):
            digest.update(name.encode() + b"\0" + sources[name][1])
        return digest.hexdigest()

    stamps: dict[str, str] = {}

    def keyed(base: Any) -> Any:
        class PackageLocator(base):  # type: ignore[misc]
            def get_source_stamp(self) -> str:
                module = _module_name(os.path.abspath(self._py_file))
                if module not in stamps:
                    stamps[module] = stamp_of(module)
                return stamps[module]

            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                if not os.path.abspath(py_file).startswith(FOLDER + os.sep):
                    return None
                return super().from_function(py_func, py_file)

        return PackageLocator

    if not any(getattr(c, "_sequence_fast", False) for c in locators):
        ours = [keyed(caching.InTreeCacheLocator), keyed(caching.UserWideCacheLocator)]
        for c in ours:
            c._sequence_fast = True
        locators[:0] = ours
