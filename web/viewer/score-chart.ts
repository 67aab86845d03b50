// The provisional risk score over the layers: an SVG line chart over the five risk-level bands (docs/risk-model.md)
// (one `circle.point` per layer, hollow while provisional, filled for the final score), and the same figures as
// an ordered list for screen readers and for copying into a case file.
import { h, svg } from "./dom.ts";
import { formatNumber, t, tOptional } from "./i18n.ts";
import type { LayerSummary } from "./model.ts";

export const RISK_LEVELS = [
  { name: "minimal", from: 0, to: 19, fill: "#e6f4ea" },
  { name: "low", from: 20, to: 39, fill: "#f1f8e9" },
  { name: "medium", from: 40, to: 59, fill: "#fef7e0" },
  { name: "high", from: 60, to: 79, fill: "#feefe3" },
  { name: "critical", from: 80, to: 100, fill: "#fce8e6" },
] as const;

export const riskLevel = (score: number) =>
  RISK_LEVELS.find((l) => score <= l.to)?.name ?? RISK_LEVELS[RISK_LEVELS.length - 1]!.name;

/**
 * The level to show for a score: the API's `riskLevel` when it sent one (the one truth: the bands live in the
 * risk model, src/risk/scoring/levels.ts), else the band the score falls in (an older server).
 */
export const levelOf = (score: number, apiLevel: string | undefined) =>
  apiLevel && RISK_LEVELS.some((l) => l.name === apiLevel) ? apiLevel : riskLevel(score);

const W = 320;
const H = 170;
const PAD = { left: 34, right: 12, top: 10, bottom: 26 };

export function renderScoreChart(
  chart: HTMLElement,
  list: HTMLOListElement,
  all: LayerSummary[],
  totalLayers: number,
): void {
  // A layer that withheld its verdict (no current data) has no point: it is listed in words only.
  const layers = all.filter((l): l is LayerSummary & { riskScore: number } => l.riskScore !== null);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slots = Math.max(totalLayers, layers.length, 2);
  const x = (layer: number) => PAD.left + (plotW * layer) / (slots - 1);
  const y = (score: number) => PAD.top + plotH * (1 - Math.min(100, Math.max(0, score)) / 100);

  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-labelledby": "score-chart-title",
    "data-points": layers.length,
  });
  root.append(svg("title", { id: "score-chart-title" }, t("viewer.chart.title")));
  for (const level of RISK_LEVELS) {
    const top = y(level.to + (level.to === 100 ? 0 : 1));
    root.append(
      svg("rect", {
        x: PAD.left,
        y: top,
        width: plotW,
        height: y(level.from) - top,
        fill: level.fill,
      }),
      svg("text", { x: W - PAD.right - 2, y: y(level.from) - 3, class: "band-label" }, levelName(level.name)),
    );
  }
  for (const tick of [0, 20, 40, 60, 80, 100]) {
    root.append(svg("text", { x: PAD.left - 6, y: y(tick) + 3, class: "axis y" }, tick));
  }
  for (let layer = 0; layer < slots; layer++) {
    if (layer >= totalLayers && layer >= layers.length) break;
    root.append(svg("text", { x: x(layer), y: H - 8, class: "axis x" }, t("viewer.chart.layer", { layer })));
  }
  if (layers.length > 1) {
    root.append(
      svg("polyline", {
        class: "score-line",
        points: layers.map((l) => `${x(l.layer)},${y(l.riskScore)}`).join(" "),
      }),
    );
  }
  for (const l of layers) {
    root.append(
      svg(
        "circle",
        {
          class: `point${l.isProvisional ? " provisional" : " final"}`,
          cx: x(l.layer),
          cy: y(l.riskScore),
          r: 4.5,
          "data-layer": l.layer,
          "data-score": l.riskScore,
        },
        svg("title", {}, pointText(l)),
      ),
    );
  }
  chart.replaceChildren(root);
  list.replaceChildren(...all.map((l) => h("li", {}, pointText(l))));
}

function pointText(l: LayerSummary): string {
  if (l.riskScore === null) return t("viewer.chart.none", { layer: l.layer });
  return t("viewer.chart.point", {
    layer: l.layer,
    score: formatScore(l.riskScore),
    level: levelName(levelOf(l.riskScore, l.riskLevel)),
    final: l.isProvisional ? "no" : "yes",
  });
}

/** A level's word in the reader's language ("alto"); the code stays in data attributes. */
export const levelName = (level: string) => tOptional(`viewer.level.${level}`) ?? level;

export const formatScore = (score: number) =>
  Number.isInteger(score) ? String(score) : formatNumber(Math.round(score * 10) / 10);
