import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api";
import { deleteFileFailureText, historyFailureText, uploadFailureText } from "./failure-text";

const server = new ApiError({ message: "x.pdf is password-protected.", status: 422, code: "UNPROCESSABLE", fromServer: true });
const network = new ApiError({ message: "Network Error", status: 0, code: "NETWORK_ERROR" });

describe("titled failure toasts (spec section 8)", () => {
  it("read the server's error text first", () => {
    expect(uploadFailureText(server)).toBe("x.pdf is password-protected.");
    expect(deleteFileFailureText(server)).toBe("x.pdf is password-protected.");
  });
  it("then the exception's message", () => {
    expect(uploadFailureText(network)).toBe("Network Error");
    expect(historyFailureText(new Error("boom"))).toBe("boom");
  });
  it("then the catalogue's fallback", () => {
    expect(uploadFailureText(undefined)).toBe("There was an error uploading your files.");
    expect(uploadFailureText(new Error(""))).toBe("There was an error uploading your files.");
    expect(deleteFileFailureText("oops")).toBe("Failed to delete file");
    expect(historyFailureText(null)).toBe("Failed to fetch chat history");
  });
});
