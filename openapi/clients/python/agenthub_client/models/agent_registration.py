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





T = TypeVar("T", bound="AgentRegistration")



@_attrs_define
class AgentRegistration:
    """ 
        Attributes:
            name (str):
            public_jwk (PublicJwk): An ES256 public key. A private member (``d``) is refused: it must never leave the agent.
            certificate (None | str | Unset): register under the AIC you already hold: your certificate (PEM, leaf first,
                then any intermediates) from a CA the hub trusts (AGENTHUB_TRUSTED_CA_FILE), for publicJwk's key; its AIC (SAN
                URI acps://{AIC}) becomes the id
            description (str | Unset):  Default: ''.
            endpoint_url (None | str | Unset):
            protocols (list[ProtocolBinding] | Unset): the protocols the agent answers; none declared: AIP at `endpointUrl`
            provider (None | str | Unset):
            skills (list[Skill] | Unset):
            version (None | str | Unset):
     """

    name: str
    public_jwk: PublicJwk
    certificate: None | str | Unset = UNSET
    description: str | Unset = ''
    endpoint_url: None | str | Unset = UNSET
    protocols: list[ProtocolBinding] | Unset = UNSET
    provider: None | str | Unset = UNSET
    skills: list[Skill] | Unset = UNSET
    version: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.protocol_binding import ProtocolBinding # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        from ..models.skill import Skill # noqa: PLC0415
        name = self.name

        public_jwk = self.public_jwk.to_dict()

        certificate: None | str | Unset
        if isinstance(self.certificate, Unset):
            certificate = UNSET
        else:
            certificate = self.certificate

        description = self.description

        endpoint_url: None | str | Unset
        if isinstance(self.endpoint_url, Unset):
            endpoint_url = UNSET
        else:
            endpoint_url = self.endpoint_url

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

        skills: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.skills, Unset):
            skills = []
            for skills_item_data in self.skills:
                skills_item = skills_item_data.to_dict()
                skills.append(skills_item)



        version: None | str | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "publicJwk": public_jwk,
        })
        if certificate is not UNSET:
            field_dict["certificate"] = certificate
        if description is not UNSET:
            field_dict["description"] = description
        if endpoint_url is not UNSET:
            field_dict["endpointUrl"] = endpoint_url
        if protocols is not UNSET:
            field_dict["protocols"] = protocols
        if provider is not UNSET:
            field_dict["provider"] = provider
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
        name = d.pop("name")

        public_jwk = PublicJwk.from_dict(d.pop("publicJwk"))




        def _parse_certificate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        certificate = _parse_certificate(d.pop("certificate", UNSET))


        description = d.pop("description", UNSET)

        def _parse_endpoint_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        endpoint_url = _parse_endpoint_url(d.pop("endpointUrl", UNSET))


        _protocols = d.pop("protocols", UNSET)
        protocols: list[ProtocolBinding] | Unset = UNSET
        if _protocols is not UNSET:
            protocols = []
            for protocols_item_data in _protocols:
                protocols_item = ProtocolBinding.from_dict(protocols_item_data)



                protocols.append(protocols_item)


        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))


        _skills = d.pop("skills", UNSET)
        skills: list[Skill] | Unset = UNSET
        if _skills is not UNSET:
            skills = []
            for skills_item_data in _skills:
                skills_item = Skill.from_dict(skills_item_data)



                skills.append(skills_item)


        def _parse_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        agent_registration = cls(
            name=name,
            public_jwk=public_jwk,
            certificate=certificate,
            description=description,
            endpoint_url=endpoint_url,
            protocols=protocols,
            provider=provider,
            skills=skills,
            version=version,
        )

        return agent_registration

