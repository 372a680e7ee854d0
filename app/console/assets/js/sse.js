// Server-sent events read with fetch(): EventSource cannot send an Authorization header,
// and the token must not go into the URL (logs, history, Referer). The parser follows the
// HTML standard's rules (id/event/data/retry fields, comments, CR/LF/CRLF line ends); the
// stream reconnects with Last-Event-ID, backing off from 1 s to 30 s with jitter.

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30000;

export class SSEParser {
  constructor(onFrame) {
    this.onFrame = onFrame;
    this.buffer = "";
    this.lastEventId = "";
    this.retry = null;
    this.event = "";
    this.data = [];
  }

  feed(chunk) {
    const text = this.buffer + chunk;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== "\n" && c !== "\r") continue;
      if (c === "\r" && i + 1 === text.length) break; // a CR: wait to see whether LF follows
      this.line(text.slice(start, i));
      if (c === "\r" && text[i + 1] === "\n") i++;
      start = i + 1;
    }
    this.buffer = text.slice(start);
  }

  line(line) {
    if (line === "") {
      if (this.data.length) {
        const frame = { id: this.lastEventId, event: this.event || "message" };
        frame.data = this.data.join("\n");
        this.onFrame(frame);
      }
      this.event = "";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return; // a comment: the hub's keep-alives
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
  }
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

// One event stream: `onEvent(kind, data, id)` per frame (data parsed as JSON when it is),
// `onStatus("connecting" | "live" | "retrying" | "refused", detail)` as its state changes.
export class EventStream {
  constructor(url, { token, onEvent, onStatus = () => {}, lastEventId = "" }) {
    this.url = url;
    this.token = token;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.lastEventId = lastEventId;
    this.stopped = new AbortController();
    this.run();
  }

  close() {
    this.stopped.abort();
  }

  async run() {
    const signal = this.stopped.signal;
    let delay = BACKOFF_MIN_MS;
    while (!signal.aborted) {
      let wait = 0;
      try {
        this.onStatus("connecting");
        wait = await this.connect(signal, () => (delay = BACKOFF_MIN_MS));
        if (wait === null) return; // refused: retrying would not help
      } catch (error) {
        if (signal.aborted) return;
      }
      this.onStatus("retrying");
      const jittered = delay / 2 + (Math.random() * delay) / 2;
      await sleep(Math.max(jittered, wait), signal);
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  // One connection: resolves when it ends (ms to wait at least before the next), null when
  // the hub refused it for good (401, 403, 404).
  async connect(signal, opened) {
    const headers = { Authorization: `Bearer ${this.token}`, Accept: "text/event-stream" };
    if (this.lastEventId) headers["Last-Event-ID"] = this.lastEventId;
    const response = await fetch(this.url, { headers, signal, cache: "no-store" });
    if ([401, 403, 404].includes(response.status)) {
      this.onStatus("refused", response.status);
      return null;
    }
    if (!response.ok) {
      // 429 and 503 say when to come back
      return Number(response.headers.get("Retry-After") || 0) * 1000;
    }
    this.onStatus("live");
    opened();
    const parser = new SSEParser((frame) => this.dispatch(frame));
    parser.lastEventId = this.lastEventId;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      this.lastEventId = parser.lastEventId;
    }
    return parser.retry || 0;
  }

  dispatch(frame) {
    this.lastEventId = frame.id;
    let data = frame.data;
    try {
      data = JSON.parse(frame.data);
    } catch {
      // not JSON: handed on as text
    }
    this.onEvent(frame.event, data, frame.id);
  }
}
