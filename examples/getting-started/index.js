export default {
  async fetch(request, env) {
    const visits = Number((await env.VISITS.get("count")) ?? 0) + 1;
    await env.VISITS.put("count", String(visits));
    return new Response(`hello from takokit, visit ${visits}\n`);
  },
};
