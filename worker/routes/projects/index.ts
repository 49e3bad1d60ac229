import { Hono } from "hono";
import { createProjectBody, listChatsQuery, updateProjectBody } from "../../../contract";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody, queryParams } from "../../http/validate";
import { createProject, deleteProject, getProject, listProjectChats, listProjects, updateProject } from "../../services/projects/projects";

/**
 * /api/projects: the user's projects ({ name, instructions }). A project's instructions are the
 * system prompt of its chats; deleting a project keeps its chats, unassigned.
 */
export function projectRoutes() {
  return (
    new Hono<AppEnv>()
      .use("*", requireUser)
      /** GET /api/projects → { projects } */
      .get("/", async (c) => c.json({ projects: await listProjects({ ctx: serviceContext(c), input: { userId: c.var.user.id } }) }))
      /** POST /api/projects { name, instructions? } → 201 { project } */
      .post("/", jsonBody(createProjectBody), async (c) => {
        const project = await createProject({ ctx: serviceContext(c), input: { userId: c.var.user.id, ...c.req.valid("json") } });
        return c.json({ project }, 201);
      })
      /** GET /api/projects/:id → { project } */
      .get("/:id", async (c) =>
        c.json({ project: await getProject({ ctx: serviceContext(c), input: { userId: c.var.user.id, projectId: c.req.param("id") } }) }),
      )
      /** PATCH /api/projects/:id { name?, instructions? } → { project } */
      .patch("/:id", jsonBody(updateProjectBody), async (c) => {
        const project = await updateProject({
          ctx: serviceContext(c),
          input: { userId: c.var.user.id, projectId: c.req.param("id"), changes: c.req.valid("json") },
        });
        return c.json({ project });
      })
      /** DELETE /api/projects/:id → 204; its chats stay, with projectId null. */
      .delete("/:id", async (c) => {
        await deleteProject({ ctx: serviceContext(c), input: { userId: c.var.user.id, projectId: c.req.param("id") } });
        return c.body(null, 204);
      })
      /** GET /api/projects/:id/chats?search=&page=&limit= → the chat list shape, this project's only. */
      .get("/:id/chats", queryParams(listChatsQuery), async (c) => {
        const { projectId: _ignored, ...query } = c.req.valid("query");
        return c.json(await listProjectChats({ ctx: serviceContext(c), input: { ...query, userId: c.var.user.id, projectId: c.req.param("id") } }));
      })
  );
}
