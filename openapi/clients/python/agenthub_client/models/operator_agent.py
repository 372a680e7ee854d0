from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.operator_agent_status import OperatorAgentStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.bound_protocol import BoundProtocol
  from ..models.certificate_summary import CertificateSummary
  from ..models.operator_agent_publicjwk import OperatorAgentPublicjwk
  from ..models.skill import Skill





T = TypeVar("T", bound="OperatorAgent")



@_attrs_define
class OperatorAgent:
    """ An agent's card as the operator lists it: with its newest certificate.

        Attributes:
            certificate (CertificateSummary): The agent's newest certificate from the hub's CA (``none``: it never asked for
                one);
                what it does not have is left out.
            created_at (datetime.datetime):
            description (str):
            id (str):
            name (str):
            public_jwk (OperatorAgentPublicjwk):
            skills (list[Skill]):
            status (OperatorAgentStatus):
            updated_at (datetime.datetime):
            endpoint_url (None | str | Unset):
            last_seen_at (datetime.datetime | None | Unset):
            protocols (list[BoundProtocol] | Unset): how the agent is reached: its declared bindings, or, if it declared
                none, AIP at its `endpointUrl` (none without one)
            provider (None | str | Unset):
            score (float | None | Unset): relevance to `q`, when searched
            version (None | str | Unset):
     """

    certificate: CertificateSummary
    created_at: datetime.datetime
    description: str
    id: str
    name: str
    public_jwk: OperatorAgentPublicjwk
    skills: list[Skill]
    status: OperatorAgentStatus
    updated_at: datetime.datetime
    endpoint_url: None | str | Unset = UNSET
    last_seen_at: datetime.datetime | None | Unset = UNSET
    protocols: list[BoundProtocol] | Unset = UNSET
    provider: None | str | Unset = UNSET
    score: float | None | Unset = UNSET
    version: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bound_protocol import BoundProtocol # noqa: PLC0415
        from ..models.certificate_summary import CertificateSummary # noqa: PLC0415
        from ..models.operator_agent_publicjwk import OperatorAgentPublicjwk # noqa: PLC0415
        from ..models.skill import Skill # noqa: PLC0415
        certificate = self.certificate.to_dict()

        created_at = self.created_at.isoformat()

        description = self.description

        id = self.id

        name = self.name

        public_jwk = self.public_jwk.to_dict()

        skills = []
        for skills_item_data in self.skills:
            skills_item = skills_item_data.to_dict()
            skills.append(skills_item)



        status = self.status.value

        updated_at = self.updated_at.isoformat()

        endpoint_url: None | str | Unset
        if isinstance(self.endpoint_url, Unset):
            endpoint_url = UNSET
        else:
            endpoint_url = self.endpoint_url

        last_seen_at: None | str | Unset
        if isinstance(self.last_seen_at, Unset):
            last_seen_at = UNSET
        elif isinstance(self.last_seen_at, datetime.datetime):
            last_seen_at = self.last_seen_at.isoformat()
        else:
            last_seen_at = self.last_seen_at

        protocols: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.protocols, Unset):
            protocols = []
            for protocols_item_data in self.protocols:
                protocols_item = protocols_item_data.to_dict()
                protocols.append(protocols_item)



        provider: None | str | Unset
        if isinstance(self.provider, Unset):
            provider = UNSET
        else:
            provider = self.provider

        score: float | None | Unset
        if isinstance(self.score, Unset):
            score = UNSET
        else:
            score = self.score

        version: None | str | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "certificate": certificate,
            "createdAt": created_at,
            "description": description,
            "id": id,
            "name": name,
            "publicJwk": public_jwk,
            "skills": skills,
            "status": status,
            "updatedAt": updated_at,
        })
        if endpoint_url is not UNSET:
            field_dict["endpointUrl"] = endpoint_url
        if last_seen_at is not UNSET:
            field_dict["lastSeenAt"] = last_seen_at
        if protocols is not UNSET:
            field_dict["protocols"] = protocols
        if provider is not UNSET:
            field_dict["provider"] = provider
        if score is not UNSET:
            field_dict["score"] = score
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bound_protocol import BoundProtocol # noqa: PLC0415
        from ..models.certificate_summary import CertificateSummary # noqa: PLC0415
        from ..models.operator_agent_publicjwk import OperatorAgentPublicjwk # noqa: PLC0415
        from ..models.skill import Skill # noqa: PLC0415
        d = dict(src_dict)
        certificate = CertificateSummary.from_dict(d.pop("certificate"))




        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        description = d.pop("description")

        id = d.pop("id")

        name = d.pop("name")

        public_jwk = OperatorAgentPublicjwk.from_dict(d.pop("publicJwk"))




        skills = []
        _skills = d.pop("skills")
        for skills_item_data in (_skills):
            skills_item = Skill.from_dict(skills_item_data)



            skills.append(skills_item)


        status = OperatorAgentStatus(d.pop("status"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        def _parse_endpoint_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        endpoint_url = _parse_endpoint_url(d.pop("endpointUrl", UNSET))


        def _parse_last_seen_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_seen_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_seen_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_seen_at = _parse_last_seen_at(d.pop("lastSeenAt", UNSET))


        _protocols = d.pop("protocols", UNSET)
        protocols: list[BoundProtocol] | Unset = UNSET
        if _protocols is not UNSET:
            protocols = []
            for protocols_item_data in _protocols:
                protocols_item = BoundProtocol.from_dict(protocols_item_data)



                protocols.append(protocols_item)


        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))


        def _parse_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score = _parse_score(d.pop("score", UNSET))


        def _parse_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        operator_agent = cls(
            certificate=certificate,
            created_at=created_at,
            description=description,
            id=id,
            name=name,
            public_jwk=public_jwk,
            skills=skills,
            status=status,
            updated_at=updated_at,
            endpoint_url=endpoint_url,
            last_seen_at=last_seen_at,
            protocols=protocols,
            provider=provider,
            score=score,
            version=version,
        )

        return operator_agent

