import type { z } from "zod";
import { userRoomId, type ChatListResponse, type createProjectBody, type Project, type updateProjectBody } from "../../../contract";
import type { ListChatsInput } from "../../chat/room-store";
import { notFound } from "../../http/errors";
import { callChatRoom, signedIn } from "../call-chat-room";
import type { ServiceContext } from "../context";

/**
 * The signed-in user's projects, in their own room beside the chats they group. A project's
 * instructions are the system prompt of its chats; deleting a project keeps its chats, unassigned.
 */

type Input<T = object> = { ctx: ServiceContext; input: { userId: string } & T };

const found = <T>(value: T | null | false): T => {
  if (!value) throw notFound();
  return value;
};

/** Most recently changed first, each with its number of chats. */
export const listProjects = ({ ctx, input }: Input): Promise<Project[]> => callChatRoom(ctx, userRoomId(input.userId), (room) => room.listProjects());

export const getProject = async ({ ctx, input }: Input<{ projectId: string }>): Promise<Project> =>
  found(await callChatRoom(ctx, userRoomId(input.userId), (room) => room.getProject(input.projectId)));

/** Null from the room: the account was deleted while this request was on its way. */
export const createProject = async ({ ctx, input }: Input<z.output<typeof createProjectBody>>): Promise<Project> =>
  signedIn(await callChatRoom(ctx, userRoomId(input.userId), (room) => room.createProject({ name: input.name, instructions: input.instructions })));

/** Renames a project or changes its instructions (used from the next message of its chats on). */
export const updateProject = async ({ ctx, input }: Input<{ projectId: string; changes: z.output<typeof updateProjectBody> }>): Promise<Project> =>
  found(await callChatRoom(ctx, userRoomId(input.userId), (room) => room.updateProject(input.projectId, input.changes)));

export const deleteProject = async ({ ctx, input }: Input<{ projectId: string }>): Promise<void> => {
  found(await callChatRoom(ctx, userRoomId(input.userId), (room) => room.deleteProject(input.projectId)));
};

/** A project's chats, the chat list's shape; an unknown project is 404. */
export const listProjectChats = async ({ ctx, input }: Input<{ projectId: string } & Omit<ListChatsInput, "projectId">>): Promise<ChatListResponse> => {
  const { userId, projectId, ...query } = input;
  return found(await callChatRoom(ctx, userRoomId(userId), (room) => room.listProjectChats(projectId, query)));
};
