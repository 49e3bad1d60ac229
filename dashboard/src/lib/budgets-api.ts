/** /api/budgets: the owner's monthly budgets, each answer parsed with the contract's schema. */
import { budgetsResponse, type BudgetsResponse, type OwnerBudgetBody } from "../../../contract";
import { apiClient, type ApiClient } from "./api";

export function createBudgetsApi(client: ApiClient) {
  return {
    get: (signal?: AbortSignal): Promise<BudgetsResponse> => client.get("/budgets", { schema: budgetsResponse, signal }),
    /** Sets (limit null: removes) the budget for all the owner's assistants. */
    setOwner: (body: OwnerBudgetBody): Promise<BudgetsResponse> => client.put("/budgets", body, { schema: budgetsResponse }),
  };
}

export const budgetsApi = createBudgetsApi(apiClient);
