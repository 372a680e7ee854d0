from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.batch_outcome_problem_type_0 import BatchOutcomeProblemType0
  from ..models.message import Message
  from ..models.product_chunk import ProductChunk
  from ..models.task_command import TaskCommand
  from ..models.task_result import TaskResult
  from ..models.task_status_update import TaskStatusUpdate





T = TypeVar("T", bound="BatchOutcome")



@_attrs_define
class BatchOutcome:
    """ What became of one item: its status as ``POST …/messages`` would answer it, and the
    stored message (2xx) or the problem (4xx).

        Attributes:
            status (int):
            message (Message | None | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Unset):
            problem (BatchOutcomeProblemType0 | None | Unset):
     """

    status: int
    message: Message | None | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Unset = UNSET
    problem: BatchOutcomeProblemType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_outcome_problem_type_0 import BatchOutcomeProblemType0 # noqa: PLC0415
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
        from ..models.task_command import TaskCommand # noqa: PLC0415
        from ..models.task_result import TaskResult # noqa: PLC0415
        from ..models.task_status_update import TaskStatusUpdate # noqa: PLC0415
        status = self.status

        message: dict[str, Any] | None | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        elif isinstance(self.message, Message):
            message = self.message.to_dict()
        elif isinstance(self.message, TaskCommand):
            message = self.message.to_dict()
        elif isinstance(self.message, TaskResult):
            message = self.message.to_dict()
        elif isinstance(self.message, TaskStatusUpdate):
            message = self.message.to_dict()
        elif isinstance(self.message, ProductChunk):
            message = self.message.to_dict()
        else:
            message = self.message

        problem: dict[str, Any] | None | Unset
        if isinstance(self.problem, Unset):
            problem = UNSET
        elif isinstance(self.problem, BatchOutcomeProblemType0):
            problem = self.problem.to_dict()
        else:
            problem = self.problem


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "status": status,
        })
        if message is not UNSET:
            field_dict["message"] = message
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_outcome_problem_type_0 import BatchOutcomeProblemType0 # noqa: PLC0415
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
        from ..models.task_command import TaskCommand # noqa: PLC0415
        from ..models.task_result import TaskResult # noqa: PLC0415
        from ..models.task_status_update import TaskStatusUpdate # noqa: PLC0415
        d = dict(src_dict)
        status = d.pop("status")

        def _parse_message(data: object) -> Message | None | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0_type_0 = Message.from_dict(data)



                return message_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0_type_1 = TaskCommand.from_dict(data)



                return message_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0_type_2 = TaskResult.from_dict(data)



                return message_type_0_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0_type_3 = TaskStatusUpdate.from_dict(data)



                return message_type_0_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0_type_4 = ProductChunk.from_dict(data)



                return message_type_0_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Message | None | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Unset, data)

        message = _parse_message(d.pop("message", UNSET))


        def _parse_problem(data: object) -> BatchOutcomeProblemType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                problem_type_0 = BatchOutcomeProblemType0.from_dict(data)



                return problem_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BatchOutcomeProblemType0 | None | Unset, data)

        problem = _parse_problem(d.pop("problem", UNSET))


        batch_outcome = cls(
            status=status,
            message=message,
            problem=problem,
        )

        return batch_outcome

