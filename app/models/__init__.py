"""The store's shared ground: the constraint naming convention every table is made under,
and the column types (``types``) the tables and the migrations share.

Each domain keeps its own tables (``app/agents/models.py``, ``app/groups/models.py``…), and
each of them imports ``app.models.types``, so the convention below is in place before any
table is defined. ``app.tables`` imports them all, for whoever needs the whole schema.
"""

from sqlmodel import SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
