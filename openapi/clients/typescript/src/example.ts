// Compiles only while the generated types match how a client uses the API.
import type { components, paths } from "./schema";

type GroupView = components["schemas"]["GroupView"];
type PostMessage =
  paths["/v1/groups/{groupId}/messages"]["post"]["requestBody"]["content"]["application/json"];

export function lastSeq(group: GroupView): number {
  return group.lastSeq;
}

export const hello: PostMessage = {
  type: "message",
  id: "msg-1",
  sentAt: "2026-12-01T00:00:00Z",
  senderRole: "leader",
  senderId: "1.2.156.3088.1.AGH.LEADER",
  mentions: "all",
  dataItems: [{ type: "text", text: "hello, team" }],
};
