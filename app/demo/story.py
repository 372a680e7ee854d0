"""The words of the demo's story: a heading and one plain sentence for each step of the
leader's plan (``app.demo.team.leader.STEPS``), and the closing paragraph on channels.

The leader says ``heading`` with a step's name as it begins the step; the transcript prints
the step's section from here. A step without a section here fails the demo's test.
"""

from __future__ import annotations

from app.demo.summary import Summary

PROLOGUE = "prologue"
SECTIONS: dict[str, tuple[str, str]] = {
    PROLOGUE: (
        "The team gathers",
        "Each agent registers with the hub under a name and its skills; the leader finds its "
        "partners by searching the hub's directory for a skill, not by knowing where they are.",
    ),
    "math_goal": (
        "Goal 1: calculate sqrt(9!) with a math team",
        "The leader invites two agents into a group and gives them sub-tasks one after the "
        "other (synchronously): the square root needs the factorial's answer first.",
    ),
    "report_goal": (
        "Goal 2: a market report, by a team with a nested sub-team",
        "A team formed by invitation and by an application the leader reviews; two sub-tasks "
        "run side by side while the group is in pause-and-trigger (it holds still: no new "
        "tasks, no talk, until a trigger, here both tasks being done, fires); meanwhile the "
        "writer forms a sub-team of its own with the charts agent.",
    ),
    "each_method": (
        "Point-to-point: one call by each method (GB/Z 185.6 Annex A)",
        "The leader calls the researcher directly, outside any group: rpc (one request, one "
        "answer), stream (the answer arrives in steps on one connection) and notification "
        "(an acknowledgement now, the result pushed back to the leader later).",
    ),
    "speaker_selection": (
        "Taking turns: who holds the floor",
        "To hold the floor is to be the member the group lets speak now: under a turns policy "
        "the hub refuses a post from anyone else, opens the floor to all when the named "
        "speaker stays silent too long, and while tasks are assigned only an assignee speaks.",
    ),
    "master_slave": (
        "Annex B.2, master-slave",
        "The leader (the master) splits a brief into two sub-tasks, sends them to two agents "
        "(the slaves) one after the other, and fuses their answers into one.",
    ),
    "proxy_negotiation": (
        "Annex B.3, proxy negotiation",
        "The leader (the proxy) offers a task to the analyst, who hands it back because it "
        "lacks the skill; the leader then offers it to the next candidate, who does it.",
    ),
    "task_subscription": (
        "Annex B.4, task subscription",
        "A task starts when a signal comes, not when it is sent: the analyst is sent a task "
        "with its trigger (another task's answer) and watches for it itself; the leader "
        "watches a clock and starts the researcher's task when the time comes.",
    ),
    "epilogue": (
        "The session closes",
        "The leader closes the session; everything above is in the hub's record, read back below.",
    ),
}


def fewer_channels(summary: Summary) -> str:
    """Why nested teams need fewer channels, with this run's numbers."""
    teams = ", ".join(
        f"the {g['name']} ({len(g['members'])} agents, {_pairs(len(g['members']))} "
        f"pair{'s' if _pairs(len(g['members'])) != 1 else ''})"
        for g in summary.groups
    )
    direct = sorted({f"{a} with {b}" for a, b in summary.p2p_pairs})
    calls = f", and the direct calls {', '.join(direct)}" if direct else ""
    n = summary.involved
    grouped = sum(_pairs(len(g["members"])) for g in summary.groups)
    recurring = grouped + len(direct) - summary.channels
    again = f" ({recurring} of them recur in more than one team)" if recurring > 0 else ""
    return (
        "Why nested teams need fewer channels. A channel is a pair of agents that talk to "
        "each other: a connection to secure, a stream to follow, a context each must keep. "
        f"Here each team linked only the agents that had to talk: {teams}{calls}: "
        f"{summary.channels} different pairs in all{again}. One flat team of the same {n} "
        f"agents would link every agent to every other, {n} x {n - 1} / 2 = "
        f"{summary.flat_channels} pairs, and every message would reach agents it does not "
        "concern (the charts agent would hear the square roots). A flat team's pairs grow "
        "with the square of its size, n(n-1)/2; teams of a few members under a leader grow "
        "about in step with the number of agents. That is why the Internet of Agents nests "
        "teams."
    )


def _pairs(members: int) -> int:
    return members * (members - 1) // 2
