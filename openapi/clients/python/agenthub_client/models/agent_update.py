from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.protocol_binding import ProtocolBinding
  from ..models.public_jwk import PublicJwk
  from ..models.skill import Skill





T = TypeVar("T", bound="AgentUpdate")



@_attrs_define
class AgentUpdate:
    """ What an agent may change about itself; a new ``publicJwk`` is a key rotation.

        Attributes:
            description (str | Unset):
            endpoint_url (None | str | Unset):
            name (str | Unset):
            protocols (list[ProtocolBinding] | None | Unset):
            provider (None | str | Unset):
            public_jwk (None | PublicJwk | Unset):
            skills (list[Skill] | None | Unset):
            version (None | str | Unset):
     """

    description: str | Unset = UNSET
    endpoint_url: None | str | Unset = UNSET
    name: str | Unset = UNSET
    protocols: list[ProtocolBinding] | None | Unset = UNSET
    provider: None | str | Unset = UNSET
    public_jwk: None | PublicJwk | Unset = UNSET
    skills: list[Skill] | None | Unset = UNSET
    version: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.protocol_binding import ProtocolBinding # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        from ..models.skill import Skill # noqa: PLC0415
        description = self.description

        endpoint_url: None | str | Unset
        if isinstance(self.endpoint_url, Unset):
            endpoint_url = UNSET
        else:
            endpoint_url = self.endpoint_url

        name = self.name

        protocols: list[dict[str, Any]] | None | Unset
        if isinstance(self.protocols, Unset):
            protocols = UNSET
        elif isinstance(self.protocols, list):
            protocols = []
            for protocols_type_0_item_data in self.protocols:
                protocols_type_0_item = protocols_type_0_item_data.to_dict()
                protocols.append(protocols_type_0_item)


        else:
            protocols = self.protocols

        provider: None | str | Unset
        if isinstance(self.provider, Unset):
            provider = UNSET
        else:
            provider = self.provider

        public_jwk: dict[str, Any] | None | Unset
        if isinstance(self.public_jwk, Unset):
            public_jwk = UNSET
        elif isinstance(self.public_jwk, PublicJwk):
            public_jwk = self.public_jwk.to_dict()
        else:
            public_jwk = self.public_jwk

        skills: list[dict[str, Any]] | None | Unset
        if isinstance(self.skills, Unset):
            skills = UNSET
        elif isinstance(self.skills, list):
            skills = []
            for skills_type_0_item_data in self.skills:
                skills_type_0_item = skills_type_0_item_data.to_dict()
                skills.append(skills_type_0_item)


        else:
            skills = self.skills

        version: None | str | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if description is not UNSET:
            field_dict["description"] = description
        if endpoint_url is not UNSET:
            field_dict["endpointUrl"] = endpoint_url
        if name is not UNSET:
            field_dict["name"] = name
        if protocols is not UNSET:
            field_dict["protocols"] = protocols
        if provider is not UNSET:
            field_dict["provider"] = provider
        if public_jwk is not UNSET:
            field_dict["publicJwk"] = public_jwk
        if skills is not UNSET:
            field_dict["skills"] = skills
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.protocol_binding import ProtocolBinding # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        from ..models.skill import Skill # noqa: PLC0415
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        def _parse_endpoint_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        endpoint_url = _parse_endpoint_url(d.pop("endpointUrl", UNSET))


        name = d.pop("name", UNSET)

        def _parse_protocols(data: object) -> list[ProtocolBinding] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                protocols_type_0 = []
                _protocols_type_0 = data
                for protocols_type_0_item_data in (_protocols_type_0):
                    protocols_type_0_item = ProtocolBinding.from_dict(protocols_type_0_item_data)



                    protocols_type_0.append(protocols_type_0_item)

                return protocols_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ProtocolBinding] | None | Unset, data)

        protocols = _parse_protocols(d.pop("protocols", UNSET))


        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))


        def _parse_public_jwk(data: object) -> None | PublicJwk | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                public_jwk_type_0 = PublicJwk.from_dict(data)



                return public_jwk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PublicJwk | Unset, data)

        public_jwk = _parse_public_jwk(d.pop("publicJwk", UNSET))


        def _parse_skills(data: object) -> list[Skill] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                skills_type_0 = []
                _skills_type_0 = data
                for skills_type_0_item_data in (_skills_type_0):
                    skills_type_0_item = Skill.from_dict(skills_type_0_item_data)



                    skills_type_0.append(skills_type_0_item)

                return skills_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Skill] | None | Unset, data)

        skills = _parse_skills(d.pop("skills", UNSET))


        def _parse_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        agent_update = cls(
            description=description,
            endpoint_url=endpoint_url,
            name=name,
            protocols=protocols,
            provider=provider,
            public_jwk=public_jwk,
            skills=skills,
            version=version,
        )

        return agent_update

