// A group's conversation, windowed: it opens on the last WINDOW messages, "Older" brings
// earlier ones a window at a time, and new ones are appended as the live stream announces
// them (fetched by seq, so a burst or a gap costs one request, never a reload). At most
// MAX_SHOWN messages stay in the page: 10,000 messages in a group stay light to show.

import { api } from "../api.js";
import { agentRef, dataText, enc, h, timeTag } from "../dom.js";
import { gist, taskLink } from "./tasks.js";

const WINDOW = 200;
const MAX_SHOWN = 600;
const LAGGING_MS = 250; // an announced message not read yet: look again this much later
const LAGGING_TRIES = 20;

function messageItem(message) {
  const text = dataText(message.dataItems || message.status?.dataItems);
  const mentions = message.mentions === "all" ? ["all"] : message.mentions || [];
  const task = message.taskId ? taskLink(message.taskId, message.sessionId) : null;
  const kind =
    message.type === "message"
      ? task && ["about ", task]
      : [gist(message), task ? [" · ", task] : null];
  const mentioned = mentions.map((m) => (m === "all" ? "all" : agentRef(m)));
  return h(
    "li",
    { class: `msg t-${message.type}`, dataset: { seq: message.seq, id: message.id } },
    h(
      "div",
      { class: "meta" },
      h("span", { class: "seq" }, `#${message.seq}`),
      timeTag(message.sentAt),
      agentRef(message.senderId),
      kind ? h("span", { class: "kind" }, kind) : null,
      mentions.length ? h("span", { class: "mentions" }, "@ ", mentioned) : null,
      message.nextSpeaker?.length
        ? h("span", { class: "next" }, "next: ", message.nextSpeaker.map((id) => agentRef(id)))
        : null,
    ),
    text ? h("div", { class: "body" }, text) : null,
  );
}

export class Conversation {
  constructor(groupId, signal, onError) {
    this.groupId = groupId;
    this.signal = signal;
    this.onError = onError;
    this.oldest = null; // the first seq shown
    this.newest = 0; // the last seq read
    this.busy = null; // the fetch of newer messages under way
    this.again = false; // news came while it ran (or before the start): go round again
    this.started = false;
    this.announced = 0; // the newest seq an event announced
    const older = () => this.older();
    this.olderButton = h("button", { type: "button", class: "more", onclick: older }, "Older");
    this.list = h("ol", { class: "messages", "aria-live": "polite" });
    this.scroller = h("div", { class: "scroller" }, this.list);
    this.el = h("div", { class: "conversation" }, this.olderButton, this.scroller);
  }

  url() {
    return `/v1/groups/${enc(this.groupId)}/messages`;
  }

  async start(lastSeq) {
    const after = Math.max(0, lastSeq - WINDOW);
    this.newest = after;
    this.olderButton.hidden = after === 0;
    this.started = true;
    await this.newer();
    this.oldest = Number(this.list.firstElementChild?.dataset.seq || after + 1);
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  // read every message after the newest shown, up to at least `seq` when an event announced
  // one; calls while one runs make it go round again
  newer(seq = 0) {
    this.announced = Math.max(this.announced, seq || 0);
    if (!this.started || this.busy) {
      this.again = true;
      return this.busy;
    }
    this.busy = (async () => {
      do {
        this.again = false;
        let page;
        do {
          page = await api(this.url(), { after: this.newest, limit: WINDOW }, this.signal);
          this.append(page.items);
        } while (page.nextCursor && page.items.length);
      } while (this.again);
    })()
      .catch(this.onError)
      .finally(() => {
        this.busy = null;
        this.lagging();
      });
    return this.busy;
  }

  // the event can come before the message reads back (another replica, a busy store): the
  // console looks again a few times rather than missing it until the next one
  lagging() {
    if (this.newest >= this.announced || this.signal.aborted) {
      this.tries = 0;
      return;
    }
    this.tries = (this.tries || 0) + 1;
    if (this.tries <= LAGGING_TRIES) setTimeout(() => this.newer(), LAGGING_MS);
  }

  append(messages) {
    if (!messages.length) return;
    const { scrollHeight, scrollTop, clientHeight } = this.scroller;
    const atBottom = scrollHeight - scrollTop - clientHeight < 40;
    for (const message of messages) {
      if (message.seq <= this.newest) continue;
      this.list.append(messageItem(message));
      this.newest = message.seq;
    }
    while (this.list.children.length > MAX_SHOWN) {
      this.list.firstElementChild.remove();
      this.olderButton.hidden = false;
    }
    this.oldest = Number(this.list.firstElementChild.dataset.seq);
    if (atBottom) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  async older() {
    this.olderButton.disabled = true;
    try {
      let after = this.oldest - 1;
      let found = [];
      while (!found.length && after > 0) {
        after = Math.max(0, after - WINDOW);
        const page = await api(this.url(), { after, limit: WINDOW }, this.signal);
        found = page.items.filter((m) => m.seq < this.oldest);
      }
      const height = this.scroller.scrollHeight;
      this.list.prepend(...found.map(messageItem));
      if (found.length) this.oldest = found[0].seq;
      this.scroller.scrollTop += this.scroller.scrollHeight - height; // keep the reader's place
      this.olderButton.hidden = after === 0;
    } catch (error) {
      this.onError(error);
    }
    this.olderButton.disabled = false;
  }
}
