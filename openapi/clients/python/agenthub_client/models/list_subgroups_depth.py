from enum import StrEnum

class ListSubgroupsDepth(StrEnum):
    ALL = "all"
    VALUE_0 = "1"

    def __str__(self) -> str:
        return str(self.value)
