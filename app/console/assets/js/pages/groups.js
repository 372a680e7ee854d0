// #/groups?sessionId= — groups across the hub (operator);
// #/groups/{id} — one group: conversation state and next speaker, the live conversation,
// the team tree it belongs to, its members (roles, mute) and its triggers.

import { api, hubUrl, isOperator, pager, signedIn } from "../api.js";
import { agentRef, enc, h, link, named, notice, pagedTable, pill } from "../dom.js";
import { facts, memberCount, section, table, timeTag } from "../dom.js";
import { emit } from "../live.js";
import { EventStream } from "../sse.js";
import { Conversation } from "./conversation.js";
import { taskLink } from "./tasks.js";

const PAGE = 50;
const LIVE_MS = 300;

function listRow(group) {
  return h(
    "tr",
    { dataset: { groupId: group.id } },
    h("td", {}, named(`#/groups/${enc(group.id)}`, group.name, group.id)),
    h("td", {}, link(`#/sessions/${enc(group.sessionId)}`, group.sessionId)),
    h("td", {}, pill(group.conversationState)),
    h("td", { class: "num" }, group.depth ?? "—"),
    h("td", { class: "num" }, memberCount(group)),
    h("td", { class: "num" }, group.lastSeq ?? "—"),
  );
}

export async function list(view, route) {
  view.append(h("h1", {}, "Groups"));
  const open = h(
    "form",
    { class: "filters", method: "post", action: "." },
    h("input", { name: "id", placeholder: "group id", "aria-label": "group id" }),
    h("button", { type: "submit" }, "Open"),
  );
  open.addEventListener("submit", (event) => {
    event.preventDefault();
    const id = new FormData(open).get("id").trim();
    if (id) location.hash = `#/groups/${enc(id)}`;
  });
  view.append(open);
  if (!isOperator()) {
    view.append(notice("Agent view: listing groups needs the operator token; open one by id."));
    return;
  }
  const sessionId = route.query.get("sessionId") || "";
  const headings = ["Group", "Session", "Conversation", "Depth", "Members", "Last seq"];
  const pages = pager("/v1/operator/groups", { sessionId, limit: PAGE }, route.signal);
  const groups = pagedTable(headings, pages, listRow, route.fail);
  view.append(...groups.nodes);
  await groups.load();
}

function groupFacts(group) {
  const { speakers, deadline } = group.floor || {};
  let next = "free: any member (a post may advise who)";
  if (group.speakingPolicy === "turns") {
    next = speakers
      ? [speakers.map((id) => [agentRef(id), " "]), deadline ? ["until ", timeTag(deadline)] : null]
      : "any member (the floor is open)";
  }
  const operator = group.configuredByOperator ? " (set up by the operator)" : "";
  return facts([
    ["conversation", pill(group.conversationState)],
    ["speaking", group.speakingPolicy],
    ["next speaker", h("span", { class: "next-speaker" }, next)],
    ["owner", agentRef(group.ownerId)],
    ["session", link(`#/sessions/${enc(group.sessionId)}`, group.sessionId)],
    ["goal", group.goal],
    ["join", `${group.joinPolicy}${operator}`],
  ]);
}

function treeNode(node, current) {
  return h(
    "li",
    {},
    node.id === current
      ? h("b", { class: "current" }, node.name)
      : link(`#/groups/${enc(node.id)}`, node.name),
    " ",
    pill(node.conversationState),
    node.children?.length ? h("ul", {}, node.children.map((c) => treeNode(c, current))) : null,
  );
}

// the whole team: up to the top group this caller may see, then all its sub-groups
async function teamTree(group, signal) {
  let top = group;
  while (top.parentGroupId) {
    try {
      top = await api(`/v1/groups/${enc(top.parentGroupId)}`, {}, signal);
    } catch {
      break;
    }
  }
  const below = await api(`/v1/groups/${enc(top.id)}/subgroups`, { depth: "all" }, signal);
  return h("ul", { class: "tree" }, treeNode({ ...top, children: below.items }, group.id));
}

async function members(group, signal) {
  const page = await api(`/v1/groups/${enc(group.id)}/members`, {}, signal);
  const rows = page.items.map((m) =>
    h(
      "tr",
      { class: m.state === "active" ? "" : "inactive" },
      h("td", {}, agentRef(m.agentId)),
      h("td", {}, m.role),
      h("td", {}, pill(m.state)),
      h("td", {}, m.muted ? pill("muted") : ""),
    ),
  );
  return table(["Agent", "Role", "State", ""], rows);
}

async function triggers(group, signal) {
  const page = await api(`/v1/groups/${enc(group.id)}/triggers`, {}, signal);
  if (!page.items.length) return notice("No triggers.");
  const rows = page.items.map((t) =>
    h(
      "tr",
      {},
      h("td", { class: "tasks" }, t.taskIds.map((task) => taskLink(task, group.sessionId))),
      h("td", {}, t.deadline ? timeTag(t.deadline) : "none"),
      h("td", {}, t.outcome ? [pill(t.outcome), " ", timeTag(t.firedAt)] : pill("pending")),
    ),
  );
  return table(["Waits for", "Deadline", "Fired"], rows);
}

// an agent's token reads the group's own stream, as a member does
function memberStream(group, route, status) {
  const stream = new EventStream(hubUrl(`/v1/groups/${enc(group.id)}/events`), {
    token: signedIn().token,
    lastEventId: String(group.lastSeq),
    onEvent: (kind, data, id) =>
      emit(kind === "message" ? kind : "group", { groupId: group.id, seq: Number(id) || 0 }),
    onStatus: (state) => status.replaceChildren("live ", pill(state)),
  });
  route.signal.addEventListener("abort", () => stream.close());
}

export async function detail(view, route) {
  const [id] = route.params;
  let group = await api(`/v1/groups/${enc(id)}`, {}, route.signal);
  const header = h("div", {}, groupFacts(group));
  const side = {
    tree: section("Team", notice("Loading…")),
    members: section("Members", notice("Loading…")),
    triggers: section("Triggers", notice("Loading…")),
  };
  const conversation = new Conversation(group.id, route.signal, route.fail);
  const liveState = h("span", { class: "live-state" });
  view.append(
    h("h1", {}, "Group ", h("span", { class: "id" }, group.name)),
    header,
    h(
      "div",
      { class: "columns wide-left" },
      h("section", { class: "card" }, h("h2", {}, "Conversation ", liveState), conversation.el),
      h("div", {}, side.tree, side.members, side.triggers),
    ),
  );
  const fill = async (part, title, make) => {
    const content = await make(group, route.signal).catch((e) => notice(e.message, "error"));
    part.replaceChildren(h("h2", {}, title), content);
  };
  const refreshSide = () =>
    Promise.all([
      fill(side.tree, "Team", teamTree),
      fill(side.members, "Members", members),
      fill(side.triggers, "Triggers", triggers),
    ]);
  let pending = null;
  const changed = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      group = await api(`/v1/groups/${enc(id)}`, {}, route.signal);
      header.replaceChildren(groupFacts(group));
      await refreshSide();
    }, LIVE_MS);
  };
  const mine = (event) => event.groupId === group.id;
  route.on("message", (event) => mine(event) && conversation.newer(event.seq));
  for (const kind of ["member", "group", "floor", "trigger"]) {
    route.on(kind, (event) => mine(event) && changed());
  }
  // listening before the first read: what happens meanwhile is read after it, not lost
  await Promise.all([conversation.start(group.lastSeq), refreshSide()]);
  if (isOperator()) {
    liveState.append("live (hub stream)");
  } else {
    memberStream(group, route, liveState);
  }
}
