/**
 * Insights of one public assistant: conversations and messages per day (a hand-drawn
 * SVG chart with a visually hidden table of the same numbers), the share of helpful answers, the
 * rated answers, the questions the knowledge did not answer (gaps) and the most asked ones, the
 * bot defence's counts (sessions challenged and refused, and the mode), over the last
 * 7, 30 or 90 days. Standalone: the host page gives the assistant and what "Open
 * conversation" does. The pure logic (scale, shapes, shares) is insights-chart.ts.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import { appMessages, botDefenceUi as D, inboxUi, insightsLimits, insightsUi as L, leadsUi, qaUi, type InsightQuestion, type InsightsResponse, type RatedAnswer } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { formatTime } from "../../lib/format";
import { getInsights, type InsightsPeriod } from "../../lib/public-assistants-api";
import { findPair, qaApi } from "../../lib/qa-api";
import { toast } from "../../stores/toast";
import { RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { TabList, TabPanel, TabPanels, useTabIds } from "../ui/tabs";
import { CheckIcon, PencilIcon } from "../ui/icons";
import { chartShapes, chartBox, handoffTotals, leadsLine, leadsPerDay, ratingShare, shortDate, totals, type DailyRow, type HandoffDay, type LeadsDay } from "./insights-chart";
import { useQaEditor, type QaEditorTarget } from "./qa-editor";
import { useCan } from "../../stores/workspace";

type Load = { state: "loading" } | { state: "error" } | { state: "ready"; data: InsightsResponse };

const periods = insightsLimits.periods.map((days) => ({ key: String(days) as `${InsightsPeriod}`, label: L.period(days) }));

export function InsightsPanel({ assistantId, onOpenConversation }: { assistantId: string; onOpenConversation: (sessionId: string) => void }) {
  const [days, setDays] = useState<InsightsPeriod>(insightsLimits.defaultDays as InsightsPeriod);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const ids = useTabIds();
  const headingId = useId();
  // A saved curated answer may resolve a gap: read the insights again.
  const editor = useQaEditor(assistantId, () => setAttempt((n) => n + 1));
  const improve: Improve = {
    open: (target) => editor.open(target),
    openPair: async (qaId, question) => {
      try {
        const pair = await findPair(qaApi, assistantId, qaId, question);
        if (pair) editor.open({ pair });
        else toast({ title: qaUi.pairNotFound, variant: "destructive" });
      } catch (err) {
        toast({ title: errorMessage(err, qaUi.loadFailed), variant: "destructive" });
      }
    },
  };

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: "loading" });
    getInsights(assistantId, days, controller.signal).then(
      (data) => setLoad({ state: "ready", data }),
      () => {
        if (!controller.signal.aborted) setLoad({ state: "error" });
      },
    );
    return () => controller.abort();
  }, [assistantId, days, attempt]);

  return (
    <section aria-labelledby={headingId} className="space-y-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          {L.title}
        </h2>
        <TabList items={periods} value={String(days) as `${InsightsPeriod}`} onChange={(key) => setDays(Number(key) as InsightsPeriod)} label={L.title} ids={ids} />
      </div>
      <TabPanels>
        {periods.map((p) => (
          <TabPanel key={p.key} tabKey={p.key} ids={ids} inactive={p.key !== String(days)}>
            {p.key === String(days) && <PeriodView load={load} onRetry={() => setAttempt((n) => n + 1)} onOpenConversation={onOpenConversation} improve={improve} />}
          </TabPanel>
        ))}
      </TabPanels>
      {editor.element}
    </section>
  );
}

/** "Improve this answer": the editor on a new pair (prefilled), or on the pair that resolved a gap. */
interface Improve {
  open: (target: QaEditorTarget) => void;
  openPair: (qaId: string, question: string) => Promise<void>;
}

function PeriodView({ load, onRetry, onOpenConversation, improve }: { load: Load; onRetry: () => void; onOpenConversation: (sessionId: string) => void; improve: Improve }) {
  if (load.state === "loading") {
    return (
      <div role="status" className="flex min-h-48 items-center justify-center gap-2 text-muted">
        <Spinner size={20} />
        <span className="sr-only">{appMessages.loading}</span>
      </div>
    );
  }
  if (load.state === "error") return <RetryAlert message={L.unavailable} onRetry={onRetry} />;
  const { data } = load;
  return (
    <div className="space-y-6">
      <DailyChart days={data.days} daily={data.daily} leads={data.leads} />
      <div className="grid gap-6 md:grid-cols-2">
        <Feedback feedback={data.feedback} />
        <CuratedAnswers counts={data.curatedAnswers} />
      </div>
      {data.handoffs ? <Handoffs days={data.days} rows={data.handoffs} /> : null}
      <BotDefence days={data.days} defence={data.defence} />
      <Section title={L.ratedAnswers} empty={data.ratedAnswers.length ? null : L.noRatings}>
        {data.ratedAnswers.map((r) => (
          <RatedRow key={r.messageId} answer={r} onOpen={onOpenConversation} improve={improve} />
        ))}
      </Section>
      <Section title={L.gaps} help={L.gapsHelp} empty={data.gaps.length ? null : L.noGaps}>
        {data.gaps.map((q, i) => (
          <QuestionRow key={`${i}-${q.question}`} question={q} onOpen={onOpenConversation} improve={improve} />
        ))}
      </Section>
      <Section title={L.topQuestions} empty={data.topQuestions.length ? null : L.noQuestions}>
        {data.topQuestions.map((q, i) => (
          <QuestionRow key={`${i}-${q.question}`} question={q} onOpen={onOpenConversation} />
        ))}
      </Section>
    </div>
  );
}

/**
 * Messages as bars, conversations as a line, leads (when the server counts them) as a dashed
 * line, on one axis; the same numbers in a table for screen readers. Colours are the design
 * tokens (light and dark): bars at 3:1 or more against the card.
 */
function DailyChart({ days, daily, leads }: { days: number; daily: DailyRow[]; leads?: LeadsDay[] }) {
  const sum = totals(daily);
  const leadCounts = leads ? leadsPerDay(daily, leads) : null;
  const leadTotal = leadCounts?.reduce((a, b) => a + b, 0) ?? 0;
  const shapes = chartShapes(daily, chartBox, leadCounts ?? []);
  const leadShapes = leadCounts ? leadsLine(leadCounts, shapes.max) : null;
  const label = L.chartLabel(days, sum.conversations, sum.messages) + (leadCounts ? ` ${leadsUi.insights.chartLabel(days, leadTotal)}` : "");
  const baseline = chartBox.height - chartBox.bottom;
  return (
    <figure className="relative overflow-hidden rounded-xl border border-line bg-surface p-4">
      <div className="mb-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted" aria-hidden="true">
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-accent-text/65" />
          {L.messages} <strong className="font-semibold text-fg">{sum.messages}</strong>
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-0.5 w-3 rounded bg-fg" />
          {L.conversations} <strong className="font-semibold text-fg">{sum.conversations}</strong>
        </span>
        {leadCounts ? (
          <span className="inline-flex items-center gap-1.5">
            <span className="h-0 w-3 border-t-2 border-dashed border-success" />
            {leadsUi.insights.leads} <strong className="font-semibold text-fg">{leadTotal}</strong>
          </span>
        ) : null}
      </div>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${chartBox.width} ${chartBox.height}`}
        className="h-auto w-full text-faint"
      >
        {shapes.ticks.map((t) => (
          <g key={t.value}>
            <line x1={chartBox.left} x2={chartBox.width - chartBox.right} y1={t.y} y2={t.y} stroke="var(--line)" strokeWidth={1} />
            <text x={chartBox.left - 6} y={t.y} dy="0.32em" textAnchor="end" fontSize={10} fill="currentColor">
              {t.value}
            </text>
          </g>
        ))}
        {shapes.bars.map((b) => (
          <rect key={b.date} x={b.x} y={b.y} width={b.width} height={b.height} rx={Math.min(2, b.width / 2)} fill="var(--accent-text)" fillOpacity={0.65} />
        ))}
        <polyline points={shapes.line} fill="none" stroke="var(--fg)" strokeWidth={2} strokeLinejoin="round" strokeLinecap="round" />
        {daily.length <= 31 && shapes.points.map((p, i) => <circle key={daily[i]!.date} cx={p.x} cy={p.y} r={3} fill="var(--fg)" stroke="var(--surface)" strokeWidth={1} />)}
        {leadShapes ? (
          <polyline points={leadShapes.line} fill="none" stroke="var(--success)" strokeWidth={2} strokeDasharray="5 4" strokeLinejoin="round" strokeLinecap="round" />
        ) : null}
        {leadShapes && daily.length <= 31
          ? leadShapes.points.map((p, i) => <circle key={daily[i]!.date} cx={p.x} cy={p.y} r={2.5} fill="var(--success)" stroke="var(--surface)" strokeWidth={1} />)
          : null}
        <line x1={chartBox.left} x2={chartBox.width - chartBox.right} y1={baseline} y2={baseline} stroke="var(--line-strong)" strokeWidth={1} />
        {shapes.labels.map((l) => (
          <text key={l.date} x={l.x} y={chartBox.height - 6} textAnchor={l.anchor} fontSize={10} fill="currentColor">
            {shortDate(l.date)}
          </text>
        ))}
      </svg>
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <td />
            <th scope="col">{L.conversations}</th>
            <th scope="col">{L.messages}</th>
            {leadCounts ? <th scope="col">{leadsUi.insights.leads}</th> : null}
          </tr>
        </thead>
        <tbody>
          {daily.map((d, i) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{d.conversations}</td>
              <td>{d.messages}</td>
              {leadCounts ? <td>{leadCounts[i]}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** People taking over: requests, takeovers and the time to the first human reply, in all and per day (days with any). */
function Handoffs({ days, rows }: { days: number; rows: HandoffDay[] }) {
  const H = inboxUi.insights;
  const sum = handoffTotals(rows);
  const active = rows.filter((r) => r.requested > 0 || r.taken > 0);
  const figures = [
    { label: H.requested, value: String(sum.requested) },
    { label: H.taken, value: String(sum.taken) },
    { label: H.medianFirstReply, value: sum.medianFirstReplyMs === null ? H.noReply : H.duration(sum.medianFirstReplyMs) },
  ];
  return (
    <section aria-label={H.title} className="rounded-xl border border-line bg-surface p-4">
      <h3 className="text-sm font-semibold text-fg">{H.title}</h3>
      <dl className="mt-3 grid grid-cols-3 gap-2">
        {figures.map((f) => (
          <div key={f.label} className="rounded-lg bg-subtle px-3 py-2">
            <dt className="text-xs text-muted">{f.label}</dt>
            <dd className="text-lg font-semibold text-fg tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      {active.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{H.none}</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{H.tableLabel(days)}</caption>
            <thead className="text-xs text-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">{H.day}</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">{H.requested}</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">{H.taken}</th>
                <th scope="col" className="py-1 text-right font-medium">{H.medianFirstReply}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {active.map((r) => (
                <tr key={r.date}>
                  <th scope="row" className="py-1.5 pr-3 font-normal whitespace-nowrap text-fg">{shortDate(r.date)}</th>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{r.requested}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{r.taken}</td>
                  <td className="py-1.5 text-right tabular-nums">{r.medianFirstReplyMs === null ? H.noReply : H.duration(r.medianFirstReplyMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Feedback({ feedback }: { feedback: InsightsResponse["feedback"] }) {
  const share = ratingShare(feedback);
  return (
    <section aria-label={L.feedback} className="rounded-xl border border-line bg-surface p-4">
      <h3 className="text-sm font-semibold text-fg">{L.feedback}</h3>
      {share ? (
        <>
          <div className="mt-3 flex h-2.5 overflow-hidden rounded-full bg-subtle" aria-hidden="true">
            <div className="bg-success" style={{ width: `${share.helpful}%` }} />
            <div className="bg-danger" style={{ width: `${share.notHelpful}%` }} />
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-muted">{L.helpful}</dt>
              <dd className="font-semibold text-fg">
                {share.helpful}% <span className="font-normal text-muted">({feedback.up})</span>
              </dd>
            </div>
            <div>
              <dt className="text-muted">{L.notHelpful}</dt>
              <dd className="font-semibold text-fg">
                {share.notHelpful}% <span className="font-normal text-muted">({feedback.down})</span>
              </dd>
            </div>
          </dl>
        </>
      ) : (
        <p className="mt-2 text-sm text-muted">{L.noRatings}</p>
      )}
    </section>
  );
}

/** Replies curated answers gave word for word (exact) and guided (guide) in the period. */
function CuratedAnswers({ counts = { exact: 0, guided: 0 } }: { counts: InsightsResponse["curatedAnswers"] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-surface p-4">
      <h3 id={headingId} className="text-sm font-semibold text-fg">
        {qaUi.insightsTitle}
      </h3>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-muted">{qaUi.insightsExact}</dt>
          <dd className="font-semibold text-fg tabular-nums">{counts.exact.toLocaleString("en")}</dd>
        </div>
        <div>
          <dt className="text-muted">{qaUi.insightsGuided}</dt>
          <dd className="font-semibold text-fg tabular-nums">{counts.guided.toLocaleString("en")}</dd>
        </div>
      </dl>
    </section>
  );
}

/** How many new conversations had to pass the browser check, how many failed it, and when it runs. */
function BotDefence({ days, defence }: { days: number; defence: InsightsResponse["defence"] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-surface p-4">
      <h3 id={headingId} className="text-sm font-semibold text-fg">
        {D.title}
      </h3>
      <p className="mt-2 text-sm text-fg">{D.summary(days, defence.challenged, defence.refused)}</p>
      <p className="mt-1 text-xs text-muted">{defence.required ? D.modeAlways : D.modeAuto}</p>
      <p className="mt-1 text-xs text-muted">{D.help}</p>
    </section>
  );
}

function Section({ title, help, empty, children }: { title: string; help?: string; empty: string | null; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="text-sm font-semibold text-fg">
        {title}
      </h3>
      {help && <p className="mt-0.5 text-xs text-muted">{help}</p>}
      {empty ? <p className="mt-2 rounded-lg bg-subtle px-3 py-3 text-sm text-muted">{empty}</p> : <ul className="mt-2 divide-y divide-line rounded-lg border border-line">{children}</ul>}
    </section>
  );
}

function OpenButton({ sessionId, describedBy, onOpen }: { sessionId: string | undefined; describedBy: string; onOpen: (sessionId: string) => void }) {
  if (!sessionId) return null;
  return (
    <Button variant="secondary" size="sm" aria-describedby={describedBy} onClick={() => onOpen(sessionId)} className="shrink-0">
      {L.openConversation}
    </Button>
  );
}

function ImproveButton({ describedBy, onClick }: { describedBy: string; onClick: () => void }) {
  // Curated answers are for the roles that edit them (viewers read Insights only).
  const allowed = useCan("qa.manage");
  if (!allowed) return null;
  return (
    <Button variant="secondary" size="sm" aria-describedby={describedBy} onClick={onClick} className="shrink-0">
      <PencilIcon size={13} />
      {qaUi.improve}
    </Button>
  );
}

function RatedRow({ answer, onOpen, improve }: { answer: RatedAnswer; onOpen: (sessionId: string) => void; improve: Improve }) {
  const id = useId();
  const helpful = answer.rating === "up";
  return (
    <li className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
          <span className={`rounded-full px-2 py-0.5 font-medium ${helpful ? "bg-success-soft text-success" : "bg-danger-soft text-danger"}`}>
            {helpful ? L.helpful : L.notHelpful}
          </span>
          <time dateTime={new Date(answer.ratedAt).toISOString()}>{formatTime(answer.ratedAt)}</time>
        </p>
        <p id={id} className="text-sm font-medium break-words text-fg">
          {answer.question}
        </p>
        <p className="line-clamp-2 text-sm break-words text-muted">{answer.answer}</p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {!helpful && (
          <ImproveButton
            describedBy={id}
            onClick={() => improve.open({ title: qaUi.improve, prefill: { question: answer.question, answer: answer.answer } })}
          />
        )}
        <OpenButton sessionId={answer.sessionId} describedBy={id} onOpen={onOpen} />
      </div>
    </li>
  );
}

/** A question asked; with `improve` (a knowledge gap), "Improve this answer", or "Resolved" once a curated answer covers it. */
function QuestionRow({ question, onOpen, improve }: { question: InsightQuestion; onOpen: (sessionId: string) => void; improve?: Improve }) {
  const id = useId();
  const [opening, setOpening] = useState(false);
  const resolvedBy = question.resolvedBy;
  return (
    <li className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p id={id} className="text-sm font-medium break-words text-fg">
          {question.question}
        </p>
        <p className="flex flex-wrap items-center gap-x-1 text-xs text-muted">
          {improve && resolvedBy && (
            <span className="mr-1 inline-flex items-center gap-1 rounded-full bg-success-soft px-2 py-0.5 font-medium text-success" title={qaUi.resolvedHelp}>
              <CheckIcon size={11} />
              {qaUi.resolved}
            </span>
          )}
          {L.asked(question.count)} · <time dateTime={new Date(question.lastAskedAt).toISOString()}>{formatTime(question.lastAskedAt)}</time>
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {improve &&
          (resolvedBy ? (
            <Button
              variant="secondary"
              size="sm"
              aria-describedby={id}
              busy={opening}
              onClick={() => {
                setOpening(true);
                void improve.openPair(resolvedBy, question.question).finally(() => setOpening(false));
              }}
            >
              {qaUi.openPair}
            </Button>
          ) : (
            <ImproveButton describedBy={id} onClick={() => improve.open({ title: qaUi.improve, prefill: { question: question.question } })} />
          ))}
        {/* The newest conversation where it was asked. */}
        <OpenButton sessionId={question.sessionIds[0]} describedBy={id} onOpen={onOpen} />
      </div>
    </li>
  );
}
