// A client's alerts grouped: alerts linked to one another (one transfer's rules, one list entry's screening and
// attempts) in one group, whichever of them links to which; groups in the order of their first alert.
import type { AlertView } from "../alerts/index.ts";

export function groupLinked(alerts: readonly AlertView[]): { alertIds: string[]; alerts: AlertView[] }[] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(id, root);
    return root;
  };
  for (const a of alerts) {
    if (!parent.has(a.id)) parent.set(a.id, a.id);
    for (const other of a.linkedAlertIds) {
      if (!parent.has(other)) parent.set(other, other);
      const [x, y] = [find(a.id), find(other)];
      if (x !== y) parent.set(y, x);
    }
  }
  const groups = new Map<string, { ids: Set<string>; alerts: AlertView[] }>();
  for (const a of alerts) {
    const root = find(a.id);
    const g = groups.get(root) ?? { ids: new Set<string>(), alerts: [] };
    g.alerts.push(a);
    g.ids.add(a.id);
    for (const other of a.linkedAlertIds) g.ids.add(other);
    groups.set(root, g);
  }
  return [...groups.values()].map((g) => ({
    alertIds: [...g.ids].sort((x, y) => Number(x) - Number(y)),
    alerts: g.alerts,
  }));
}
