from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.message_page import MessagePage
  from ..models.task_page import TaskPage





T = TypeVar("T", bound="SessionContext")



@_attrs_define
class SessionContext:
    """ A session's history (GB/Z Table 5 ``context``): one page of its point-to-point
    messages, oldest first, and of its tasks, oldest first, each paged on its own cursor.

        Attributes:
            messages (MessagePage):
            tasks (TaskPage):
     """

    messages: MessagePage
    tasks: TaskPage





    def to_dict(self) -> dict[str, Any]:
        from ..models.message_page import MessagePage # noqa: PLC0415
        from ..models.task_page import TaskPage # noqa: PLC0415
        messages = self.messages.to_dict()

        tasks = self.tasks.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "messages": messages,
            "tasks": tasks,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message_page import MessagePage # noqa: PLC0415
        from ..models.task_page import TaskPage # noqa: PLC0415
        d = dict(src_dict)
        messages = MessagePage.from_dict(d.pop("messages"))




        tasks = TaskPage.from_dict(d.pop("tasks"))




        session_context = cls(
            messages=messages,
            tasks=tasks,
        )

        return session_context

