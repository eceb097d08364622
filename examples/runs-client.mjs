// The code under test in the recipes: a small client of the real service, written with global fetch and a base URL.
// The recipes leave it unchanged: mock.intercept answers its requests in process.
export function runsClient({ baseUrl, token }) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw Object.assign(new Error(`${res.status} ${data?.detail?.reason_code ?? ''}`), { status: res.status, data });
    return data;
  };
  return {
    getRun: (projectId, runId) => call('GET', `/api/v3/projects/${projectId}/runs/${runId}`),
    cancelRun: (projectId, runId, reason) => call('POST', `/api/v3/projects/${projectId}/runs/${runId}/cancel`, { reason }),
    /** Lists jobs, retrying once after a 503. */
    async listJobs(projectId) {
      try {
        return await call('GET', `/api/v3/projects/${projectId}/jobs`);
      } catch (err) {
        if (err.status !== 503) throw err;
        return call('GET', `/api/v3/projects/${projectId}/jobs`);
      }
    },
  };
}
