from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RelayedAnswer")



@_attrs_define
class RelayedAnswer:
    """ A partner's answer to one of the caller's calls, for the hub's record of its task.

        Attributes:
            answer (str): the answer's HTTP body exactly as received: a JSON-RPC response whose result is a TaskResult
            partner_id (str):
            nonce (None | str | Unset): the nonce of the call it answered
            signature (None | str | Unset): the answer's X-Agent-Signature, if any
     """

    answer: str
    partner_id: str
    nonce: None | str | Unset = UNSET
    signature: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        partner_id = self.partner_id

        nonce: None | str | Unset
        if isinstance(self.nonce, Unset):
            nonce = UNSET
        else:
            nonce = self.nonce

        signature: None | str | Unset
        if isinstance(self.signature, Unset):
            signature = UNSET
        else:
            signature = self.signature


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "answer": answer,
            "partnerId": partner_id,
        })
        if nonce is not UNSET:
            field_dict["nonce"] = nonce
        if signature is not UNSET:
            field_dict["signature"] = signature

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer = d.pop("answer")

        partner_id = d.pop("partnerId")

        def _parse_nonce(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        nonce = _parse_nonce(d.pop("nonce", UNSET))


        def _parse_signature(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signature = _parse_signature(d.pop("signature", UNSET))


        relayed_answer = cls(
            answer=answer,
            partner_id=partner_id,
            nonce=nonce,
            signature=signature,
        )

        return relayed_answer

