"""Lists whose page keys need no layout (``screens.keyed.PagedList``)."""

from __future__ import annotations

from textual.widgets import OptionList, SelectionList

from ..screens.keyed import PagedList


class PagedOptionList(PagedList, OptionList):
    """An ``OptionList`` paging ten rows at a time."""


class PagedSelectionList(PagedList, SelectionList):
    """A ``SelectionList`` paging ten rows at a time."""
