import { Hono } from "hono";
import { leadFormInput, leadsQuery } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody, queryParams } from "../../http/validate";
import { exportLeads } from "../../services/leads/export-leads";
import { getLeadForm } from "../../services/leads/get-lead-form";
import { listLeads } from "../../services/leads/list-leads";
import { updateLeadForm } from "../../services/leads/update-lead-form";

/**
 * Lead capture (contract/schemas/leads.ts): the owner's form, the leads visitors left, their CSV
 * export. The owner only: another owner's assistant is a 404.
 */
export const leadRoutes = new Hono<AppEnv>()
  /** GET /:id/lead-form → leadFormResponse (the defaults, off, when never set). */
  .get("/:id/lead-form", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await getLeadForm({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } }));
  })
  /** PUT /:id/lead-form leadFormInput → leadFormResponse (merged over the current form, saved in the assistant's config). */
  .put("/:id/lead-form", jsonBody(leadFormInput), async (c) =>
    c.json(await updateLeadForm({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), changes: c.req.valid("json") } })),
  )
  /** GET /:id/leads?page=&q= → leadsResponse, newest first. */
  .get("/:id/leads", queryParams(leadsQuery), async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await listLeads({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...c.req.valid("query") } }));
  })
  /** GET /:id/leads/export → text/csv attachment leads-{id}.csv (UTF-8 with BOM, formula-safe cells). */
  .get("/:id/leads/export", async (c) => {
    const id = c.req.param("id");
    const csv = await exportLeads({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: id } });
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="leads-${id.replace(/[^\w-]/g, "_")}.csv"`,
      "cache-control": "private, no-store",
    });
  });
