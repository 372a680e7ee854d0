// A task's record in causal order: the command before the answers it caused.
//
// The hub lists a task's messages in the order it stored them. A task is recorded from two
// sides, though (the leader's commands, the partner's answers), by two processes that reach
// the hub independently, so an answer may be stored before the command that caused it. The
// console keeps the stored order (never the senders' clocks) and only holds a message back
// until the move that allows it, by AIP §4.5's table (agenthub/protocol/tasks.py), is shown:
// nothing of the task before its `start`, an answer after the command it answers, a leader's
// command after the answer it reacts to. What the task can no longer take is shown where it
// was stored; plain talk is never held back.

const FINAL = new Set(["completed", "failed", "canceled", "rejected"]);

// the state (or "" for a new task) -> the states the partner may report next
const PARTNER_MOVES = {
  "": ["accepted", "rejected"],
  accepted: ["working"],
  working: ["awaiting-input", "awaiting-completion", "failed"],
  "awaiting-input": ["canceled"], // its wait timed out
  "awaiting-completion": ["completed"], // its wait timed out
};

// the state -> {leader command: the state it moves the task to}
const LEADER_MOVES = {
  accepted: { cancel: "canceled" },
  working: { cancel: "canceled" },
  "awaiting-input": { continue: "working", cancel: "canceled" },
  "awaiting-completion": { complete: "completed", continue: "working", cancel: "canceled" },
};

const isStart = (m) => m.type === "task-command" && m.command === "start";
const isReport = (m) => m.type === "task-result" || m.type === "task-status-update";

class Replay {
  constructor(messages) {
    this.started = !messages.some(isStart);
    this.state = "";
    this.reached = new Set();
    this.pending = new Set(messages); // not shown yet
  }

  get final() {
    return FINAL.has(this.state);
  }

  // whether `m` may be shown now; `m`'s move is made when it may
  take(m) {
    if (isStart(m)) {
      this.started = true;
      return true;
    }
    if (m.type === "message") return true;
    if (!this.started) return false;
    if (m.type === "task-command") return this.command(m);
    if (m.type === "product-chunk") return this.state !== "" && !this.final;
    if (isReport(m)) return this.report(m);
    return true;
  }

  command(m) {
    const to = LEADER_MOVES[this.state]?.[m.command];
    if (to) return this.move(to);
    // get and re-stream move nothing; on an ended task a command moves nothing (AIP §4.5:
    // ignored) and is shown where it was stored; otherwise it waits for a state it fits
    return !["continue", "complete", "cancel"].includes(m.command) || this.final;
  }

  report(m) {
    const to = m.status?.state;
    if (!to || to === this.state) return true; // progress within the state, or again
    const allowed = (PARTNER_MOVES[this.state] || []).includes(to);
    if (allowed && !this.leaderWillMake(to)) return this.move(to);
    // a state of a later round (working again after a continue): after the command
    if (this.leaderWillMake(to)) return false;
    if (this.reached.has(to)) return true; // an earlier state recorded again: as stored
    if (m.type === "task-result" && m.statusHistory?.length) return this.move(to); // a path
    return false;
  }

  // a leader's command still to show that makes this very move: the answer follows it
  leaderWillMake(to) {
    for (const m of this.pending) {
      if (m.type === "task-command" && LEADER_MOVES[this.state]?.[m.command] === to) return true;
    }
    return false;
  }

  move(to) {
    this.state = to;
    this.reached.add(to);
    return true;
  }
}

export function causalOrder(messages) {
  const replay = new Replay(messages);
  const shown = [];
  let waiting = [];
  const show = (m) => {
    replay.pending.delete(m);
    shown.push(m);
  };
  const release = () => {
    for (let progress = true; progress && waiting.length; ) {
      progress = false;
      for (const m of waiting) {
        if (replay.final || replay.take(m)) {
          waiting = waiting.filter((w) => w !== m);
          show(m);
          progress = true;
          break; // from the first again: the stored order among those released
        }
      }
    }
  };
  for (const m of messages) {
    if (replay.take(m)) {
      show(m);
      release();
    } else {
      waiting.push(m);
    }
  }
  waiting.forEach(show); // never allowed: as stored
  return shown;
}
