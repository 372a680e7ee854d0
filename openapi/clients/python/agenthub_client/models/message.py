from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_artifact_type_0 import MessageArtifactType0
from ..models.message_senderrole import MessageSenderrole
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.file_data_item import FileDataItem
  from ..models.gbz_data_item import GbzDataItem
  from ..models.structured_data_item import StructuredDataItem
  from ..models.text_data_item import TextDataItem





T = TypeVar("T", bound="Message")



@_attrs_define
class Message:
    """ A plain message. GB/Z 185.6 Table 3 makes its data mandatory: the hub refuses one
    without data items when it is posted (``message-without-data``), and reads the ones it
    stored before that rule as they are.

        Attributes:
            id (str):
            sender_id (str):
            sender_role (MessageSenderrole):
            sent_at (datetime.datetime):
            type_ (Literal['message']):  Default: 'message'.
            artifact (MessageArtifactType0 | None | Unset):
            chunk_index (int | None | Unset):
            data_items (list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset):
            final (bool | None | Unset):
            group_id (None | str | Unset):
            last_chunk (bool | None | Unset):
            mentions (list[str] | Literal['all'] | None | Unset):
            next_speaker (list[str] | None | Unset): IoA's next_speaker, in a group: the active members who should speak
                next (enforced when the group's speakingPolicy is turns)
            received_at (datetime.datetime | None | Unset): when the hub recorded it
            relayed_by (None | str | Unset): who recorded this answer for its sender (hub-assigned)
            seq (int | None | Unset): per-group order (hub-assigned)
            session_id (None | str | Unset):
            task_id (None | str | Unset):
            verified (bool | None | Unset): a relayed answer: whether it carried its sender's signature (hub-assigned)
     """

    id: str
    sender_id: str
    sender_role: MessageSenderrole
    sent_at: datetime.datetime
    type_: Literal['message'] = 'message'
    artifact: MessageArtifactType0 | None | Unset = UNSET
    chunk_index: int | None | Unset = UNSET
    data_items: list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset = UNSET
    final: bool | None | Unset = UNSET
    group_id: None | str | Unset = UNSET
    last_chunk: bool | None | Unset = UNSET
    mentions: list[str] | Literal['all'] | None | Unset = UNSET
    next_speaker: list[str] | None | Unset = UNSET
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
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        id = self.id

        sender_id = self.sender_id

        sender_role = self.sender_role.value

        sent_at = self.sent_at.isoformat()

        type_ = self.type_

        artifact: None | str | Unset
        if isinstance(self.artifact, Unset):
            artifact = UNSET
        elif isinstance(self.artifact, MessageArtifactType0):
            artifact = self.artifact.value
        else:
            artifact = self.artifact

        chunk_index: int | None | Unset
        if isinstance(self.chunk_index, Unset):
            chunk_index = UNSET
        else:
            chunk_index = self.chunk_index

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
        if data_items is not UNSET:
            field_dict["dataItems"] = data_items
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
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        sender_id = d.pop("senderId")

        sender_role = MessageSenderrole(d.pop("senderRole"))




        sent_at = datetime.datetime.fromisoformat(d.pop("sentAt"))




        type_ = cast(Literal['message'] , d.pop("type"))
        if type_ != 'message':
            raise ValueError(f"type must match const 'message', got '{type_}'")

        def _parse_artifact(data: object) -> MessageArtifactType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                artifact_type_0 = MessageArtifactType0(data)



                return artifact_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageArtifactType0 | None | Unset, data)

        artifact = _parse_artifact(d.pop("artifact", UNSET))


        def _parse_chunk_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chunk_index = _parse_chunk_index(d.pop("chunkIndex", UNSET))


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


        message = cls(
            id=id,
            sender_id=sender_id,
            sender_role=sender_role,
            sent_at=sent_at,
            type_=type_,
            artifact=artifact,
            chunk_index=chunk_index,
            data_items=data_items,
            final=final,
            group_id=group_id,
            last_chunk=last_chunk,
            mentions=mentions,
            next_speaker=next_speaker,
            received_at=received_at,
            relayed_by=relayed_by,
            seq=seq,
            session_id=session_id,
            task_id=task_id,
            verified=verified,
        )

        return message

