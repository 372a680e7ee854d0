from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.task_command_artifact_type_0 import TaskCommandArtifactType0
from ..models.task_command_senderrole import TaskCommandSenderrole
from ..models.task_command_type import TaskCommandType
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.file_data_item import FileDataItem
  from ..models.gbz_data_item import GbzDataItem
  from ..models.structured_data_item import StructuredDataItem
  from ..models.task_command_command_params_type_0 import TaskCommandCommandParamsType0
  from ..models.text_data_item import TextDataItem





T = TypeVar("T", bound="TaskCommand")



@_attrs_define
class TaskCommand:
    """ 
        Attributes:
            command (TaskCommandType):
            id (str):
            sender_id (str):
            sender_role (TaskCommandSenderrole):
            sent_at (datetime.datetime):
            type_ (Literal['task-command']):  Default: 'task-command'.
            artifact (None | TaskCommandArtifactType0 | Unset):
            chunk_index (int | None | Unset):
            command_params (None | TaskCommandCommandParamsType0 | Unset):
            data_items (list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset):
            dependencies (list[str] | None | Unset):
            final (bool | None | Unset):
            group_id (None | str | Unset):
            last_chunk (bool | None | Unset):
            mentions (list[str] | Literal['all'] | None | Unset):
            next_speaker (list[str] | None | Unset): IoA's next_speaker, in a group: the active members who should speak
                next (enforced when the group's speakingPolicy is turns)
            parent_task_id (None | str | Unset):
            partner_id (None | str | Unset):
            received_at (datetime.datetime | None | Unset): when the hub recorded it
            relayed_by (None | str | Unset): who recorded this answer for its sender (hub-assigned)
            seq (int | None | Unset): per-group order (hub-assigned)
            session_id (None | str | Unset):
            task_id (None | str | Unset):
            verified (bool | None | Unset): a relayed answer: whether it carried its sender's signature (hub-assigned)
     """

    command: TaskCommandType
    id: str
    sender_id: str
    sender_role: TaskCommandSenderrole
    sent_at: datetime.datetime
    type_: Literal['task-command'] = 'task-command'
    artifact: None | TaskCommandArtifactType0 | Unset = UNSET
    chunk_index: int | None | Unset = UNSET
    command_params: None | TaskCommandCommandParamsType0 | Unset = UNSET
    data_items: list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset = UNSET
    dependencies: list[str] | None | Unset = UNSET
    final: bool | None | Unset = UNSET
    group_id: None | str | Unset = UNSET
    last_chunk: bool | None | Unset = UNSET
    mentions: list[str] | Literal['all'] | None | Unset = UNSET
    next_speaker: list[str] | None | Unset = UNSET
    parent_task_id: None | str | Unset = UNSET
    partner_id: None | str | Unset = UNSET
    received_at: datetime.datetime | None | Unset = UNSET
    relayed_by: None | str | Unset = UNSET
    seq: int | None | Unset = UNSET
    session_id: None | str | Unset = UNSET
    task_id: None | str | Unset = UNSET
    verified: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.task_command_command_params_type_0 import TaskCommandCommandParamsType0 # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        command = self.command.value

        id = self.id

        sender_id = self.sender_id

        sender_role = self.sender_role.value

        sent_at = self.sent_at.isoformat()

        type_ = self.type_

        artifact: None | str | Unset
        if isinstance(self.artifact, Unset):
            artifact = UNSET
        elif isinstance(self.artifact, TaskCommandArtifactType0):
            artifact = self.artifact.value
        else:
            artifact = self.artifact

        chunk_index: int | None | Unset
        if isinstance(self.chunk_index, Unset):
            chunk_index = UNSET
        else:
            chunk_index = self.chunk_index

        command_params: dict[str, Any] | None | Unset
        if isinstance(self.command_params, Unset):
            command_params = UNSET
        elif isinstance(self.command_params, TaskCommandCommandParamsType0):
            command_params = self.command_params.to_dict()
        else:
            command_params = self.command_params

        data_items: list[dict[str, Any]] | None | Unset
        if isinstance(self.data_items, Unset):
            data_items = UNSET
        elif isinstance(self.data_items, list):
            data_items = []
            for data_items_type_0_item_data in self.data_items:
                data_items_type_0_item: dict[str, Any]
                if isinstance(data_items_type_0_item_data, TextDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                elif isinstance(data_items_type_0_item_data, FileDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                elif isinstance(data_items_type_0_item_data, StructuredDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                else:
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()

                data_items.append(data_items_type_0_item)


        else:
            data_items = self.data_items

        dependencies: list[str] | None | Unset
        if isinstance(self.dependencies, Unset):
            dependencies = UNSET
        elif isinstance(self.dependencies, list):
            dependencies = self.dependencies


        else:
            dependencies = self.dependencies

        final: bool | None | Unset
        if isinstance(self.final, Unset):
            final = UNSET
        else:
            final = self.final

        group_id: None | str | Unset
        if isinstance(self.group_id, Unset):
            group_id = UNSET
        else:
            group_id = self.group_id

        last_chunk: bool | None | Unset
        if isinstance(self.last_chunk, Unset):
            last_chunk = UNSET
        else:
            last_chunk = self.last_chunk

        mentions: list[str] | Literal['all'] | None | Unset
        if isinstance(self.mentions, Unset):
            mentions = UNSET
        elif isinstance(self.mentions, list):
            mentions = self.mentions


        else:
            mentions = self.mentions

        next_speaker: list[str] | None | Unset
        if isinstance(self.next_speaker, Unset):
            next_speaker = UNSET
        elif isinstance(self.next_speaker, list):
            next_speaker = self.next_speaker


        else:
            next_speaker = self.next_speaker

        parent_task_id: None | str | Unset
        if isinstance(self.parent_task_id, Unset):
            parent_task_id = UNSET
        else:
            parent_task_id = self.parent_task_id

        partner_id: None | str | Unset
        if isinstance(self.partner_id, Unset):
            partner_id = UNSET
        else:
            partner_id = self.partner_id

        received_at: None | str | Unset
        if isinstance(self.received_at, Unset):
            received_at = UNSET
        elif isinstance(self.received_at, datetime.datetime):
            received_at = self.received_at.isoformat()
        else:
            received_at = self.received_at

        relayed_by: None | str | Unset
        if isinstance(self.relayed_by, Unset):
            relayed_by = UNSET
        else:
            relayed_by = self.relayed_by

        seq: int | None | Unset
        if isinstance(self.seq, Unset):
            seq = UNSET
        else:
            seq = self.seq

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        task_id: None | str | Unset
        if isinstance(self.task_id, Unset):
            task_id = UNSET
        else:
            task_id = self.task_id

        verified: bool | None | Unset
        if isinstance(self.verified, Unset):
            verified = UNSET
        else:
            verified = self.verified


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "command": command,
            "id": id,
            "senderId": sender_id,
            "senderRole": sender_role,
            "sentAt": sent_at,
            "type": type_,
        })
        if artifact is not UNSET:
            field_dict["artifact"] = artifact
        if chunk_index is not UNSET:
            field_dict["chunkIndex"] = chunk_index
        if command_params is not UNSET:
            field_dict["commandParams"] = command_params
        if data_items is not UNSET:
            field_dict["dataItems"] = data_items
        if dependencies is not UNSET:
            field_dict["dependencies"] = dependencies
        if final is not UNSET:
            field_dict["final"] = final
        if group_id is not UNSET:
            field_dict["groupId"] = group_id
        if last_chunk is not UNSET:
            field_dict["lastChunk"] = last_chunk
        if mentions is not UNSET:
            field_dict["mentions"] = mentions
        if next_speaker is not UNSET:
            field_dict["nextSpeaker"] = next_speaker
        if parent_task_id is not UNSET:
            field_dict["parentTaskId"] = parent_task_id
        if partner_id is not UNSET:
            field_dict["partnerId"] = partner_id
        if received_at is not UNSET:
            field_dict["receivedAt"] = received_at
        if relayed_by is not UNSET:
            field_dict["relayedBy"] = relayed_by
        if seq is not UNSET:
            field_dict["seq"] = seq
        if session_id is not UNSET:
            field_dict["sessionId"] = session_id
        if task_id is not UNSET:
            field_dict["taskId"] = task_id
        if verified is not UNSET:
            field_dict["verified"] = verified

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.task_command_command_params_type_0 import TaskCommandCommandParamsType0 # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        d = dict(src_dict)
        command = TaskCommandType(d.pop("command"))




        id = d.pop("id")

        sender_id = d.pop("senderId")

        sender_role = TaskCommandSenderrole(d.pop("senderRole"))




        sent_at = datetime.datetime.fromisoformat(d.pop("sentAt"))




        type_ = cast(Literal['task-command'] , d.pop("type"))
        if type_ != 'task-command':
            raise ValueError(f"type must match const 'task-command', got '{type_}'")

        def _parse_artifact(data: object) -> None | TaskCommandArtifactType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                artifact_type_0 = TaskCommandArtifactType0(data)



                return artifact_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskCommandArtifactType0 | Unset, data)

        artifact = _parse_artifact(d.pop("artifact", UNSET))


        def _parse_chunk_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chunk_index = _parse_chunk_index(d.pop("chunkIndex", UNSET))


        def _parse_command_params(data: object) -> None | TaskCommandCommandParamsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                command_params_type_0 = TaskCommandCommandParamsType0.from_dict(data)



                return command_params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskCommandCommandParamsType0 | Unset, data)

        command_params = _parse_command_params(d.pop("commandParams", UNSET))


        def _parse_data_items(data: object) -> list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                data_items_type_0 = []
                _data_items_type_0 = data
                for data_items_type_0_item_data in (_data_items_type_0):
                    def _parse_data_items_type_0_item(data: object) -> FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_0 = TextDataItem.from_dict(data)



                            return data_items_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_1 = FileDataItem.from_dict(data)



                            return data_items_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_2 = StructuredDataItem.from_dict(data)



                            return data_items_type_0_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        data_items_type_0_item_type_3 = GbzDataItem.from_dict(data)



                        return data_items_type_0_item_type_3

                    data_items_type_0_item = _parse_data_items_type_0_item(data_items_type_0_item_data)

                    data_items_type_0.append(data_items_type_0_item)

                return data_items_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset, data)

        data_items = _parse_data_items(d.pop("dataItems", UNSET))


        def _parse_dependencies(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                dependencies_type_0 = cast(list[str], data)

                return dependencies_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        dependencies = _parse_dependencies(d.pop("dependencies", UNSET))


        def _parse_final(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        final = _parse_final(d.pop("final", UNSET))


        def _parse_group_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group_id = _parse_group_id(d.pop("groupId", UNSET))


        def _parse_last_chunk(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        last_chunk = _parse_last_chunk(d.pop("lastChunk", UNSET))


        def _parse_mentions(data: object) -> list[str] | Literal['all'] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            mentions_type_0 = cast(Literal['all'] , data)
            if mentions_type_0 != 'all':
                raise ValueError(f"mentions_type_0 must match const 'all', got '{mentions_type_0}'")
            return mentions_type_0
            try:
                if not isinstance(data, list):
                    raise TypeError()
                mentions_type_1 = cast(list[str], data)

                return mentions_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | Literal['all'] | None | Unset, data)

        mentions = _parse_mentions(d.pop("mentions", UNSET))


        def _parse_next_speaker(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                next_speaker_type_0 = cast(list[str], data)

                return next_speaker_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        next_speaker = _parse_next_speaker(d.pop("nextSpeaker", UNSET))


        def _parse_parent_task_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_task_id = _parse_parent_task_id(d.pop("parentTaskId", UNSET))


        def _parse_partner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        partner_id = _parse_partner_id(d.pop("partnerId", UNSET))


        def _parse_received_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                received_at_type_0 = datetime.datetime.fromisoformat(data)



                return received_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        received_at = _parse_received_at(d.pop("receivedAt", UNSET))


        def _parse_relayed_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        relayed_by = _parse_relayed_by(d.pop("relayedBy", UNSET))


        def _parse_seq(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seq = _parse_seq(d.pop("seq", UNSET))


        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("sessionId", UNSET))


        def _parse_task_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        task_id = _parse_task_id(d.pop("taskId", UNSET))


        def _parse_verified(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        verified = _parse_verified(d.pop("verified", UNSET))


        task_command = cls(
            command=command,
            id=id,
            sender_id=sender_id,
            sender_role=sender_role,
            sent_at=sent_at,
            type_=type_,
            artifact=artifact,
            chunk_index=chunk_index,
            command_params=command_params,
            data_items=data_items,
            dependencies=dependencies,
            final=final,
            group_id=group_id,
            last_chunk=last_chunk,
            mentions=mentions,
            next_speaker=next_speaker,
            parent_task_id=parent_task_id,
            partner_id=partner_id,
            received_at=received_at,
            relayed_by=relayed_by,
            seq=seq,
            session_id=session_id,
            task_id=task_id,
            verified=verified,
        )

        return task_command

