"""Fan-out between the writers of events and the streams that deliver them.

SQL is the record; a broker only wakes streams up. Every ``Delivery`` carries its ``seq``,
so a stream that sees a gap, or whose bounded queue overflowed, catches up from SQL.
"""

from app.broker.base import Broker, Delivery, Subscription
from app.broker.factory import make_broker
from app.broker.memory import MemoryBroker

__all__ = ["Broker", "Delivery", "MemoryBroker", "Subscription", "make_broker"]
