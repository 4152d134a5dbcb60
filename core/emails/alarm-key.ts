// Vendor alarms are throttled by their source key: one e-mail per subject (endpoint, gateway account)
// per day of the tenant's clock, however many failures that day brings.
export function dailyAlarmKey(subjectId: string, at: Date): string {
  return `${subjectId}:${at.toISOString().slice(0, 10)}`;
}
