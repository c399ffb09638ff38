"""Frozen records: small value classes whose methods are written once here, not made at each start-up.

A frozen ``@dataclass`` writes the source of six methods and compiles it every time
the program starts (about 4 M instructions a class: a dozen of them were a tenth of
the console's start-up beyond a bare Textual app). A ``Frozen`` subclass behaves as
the frozen dataclass it replaces, with methods compiled once into the bytecode cache:

- its fields are its annotated class attributes in order (after its ``Frozen``
  bases' fields), a class value being the field's default;
- made with the fields as positional or keyword arguments, then ``__post_init__``;
- equal to a record of the same class with equal fields, hashed by them (the fields
  in ``__uncompared__`` count for neither), shown as ``Name(field=value, ...)``;
- no attribute can be set or deleted once made (``FrozenInstanceError``).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar

_MISSING = object()


class Frozen:
    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_defaults__: ClassVar[dict[str, Any]] = {}
    __record_compared__: ClassVar[tuple[str, ...]] = ()
    __uncompared__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls.__record_fields__)
        defaults = dict(cls.__record_defaults__)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in fields:
                fields.append(name)
            value = cls.__dict__.get(name, _MISSING)
            if value is not _MISSING:
                defaults[name] = value
            elif name in defaults:
                del defaults[name]
        required_after = [f for i, f in enumerate(fields) if f not in defaults and any(g in defaults for g in fields[:i])]
        if required_after:
            raise TypeError(f"{cls.__name__}: field {required_after[0]!r} without a default follows one with a default")
        cls.__record_fields__ = tuple(fields)
        cls.__record_defaults__ = defaults
        cls.__record_compared__ = tuple(f for f in fields if f not in cls.__uncompared__)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self.__record_fields__
        name = type(self).__name__
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} arguments but {len(args)} were given")
        values = dict(zip(fields, args))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            values[key] = value
        defaults = self.__record_defaults__
        put = object.__setattr__
        for field in fields:
            value = values.get(field, _MISSING)
            if value is _MISSING:
                value = defaults.get(field, _MISSING)
                if value is _MISSING:
                    raise TypeError(f"{name}() missing required argument: {field!r}")
            put(self, field, value)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _compared(self) -> tuple:
        return tuple(getattr(self, field) for field in self.__record_compared__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared() == other._compared()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={getattr(self, field)!r}" for field in self.__record_fields__)
        return f"{type(self).__qualname__}({shown})"
