import { describe, expect, it } from "vitest";
import { roleIn } from "../services/team/resolve-access";
import { pathParams } from "./team-guard";

describe("pathParams", () => {
  it("reads each :name segment of the route from the request's path, decoded", () => {
    expect(pathParams("/api/public-assistants/:id/chats/:sessionId", "/api/public-assistants/a1/chats/s%2F2")).toEqual({ id: "a1", sessionId: "s/2" });
    expect(pathParams("/api/team/members/:userId", "/api/team/members/u-9")).toEqual({ userId: "u-9" });
  });

  it("keeps a segment that is not valid percent-encoding as it came", () => {
    expect(pathParams("/x/:id", "/x/%E0%A4%A")).toEqual({ id: "%E0%A4%A" });
  });
});

describe("roleIn", () => {
  it("makes the user whose id is the workspace's its owner while it has no row", () => {
    expect(roleIn("w1", "w1", null, null)).toBe("owner");
    expect(roleIn("w1", "u2", null, "agent")).toBe("agent");
    expect(roleIn("w1", "u2", null, null)).toBeNull();
  });

  it("follows the row's owner once ownership moved: the first owner is then what their member row says", () => {
    expect(roleIn("w1", "u2", "u2", null)).toBe("owner");
    expect(roleIn("w1", "w1", "u2", "admin")).toBe("admin");
    expect(roleIn("w1", "w1", "u2", null)).toBeNull();
  });
});
