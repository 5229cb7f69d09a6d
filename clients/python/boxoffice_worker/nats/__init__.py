"""boxoffice-worker on NATS: the worker's methods as a NATS service (request/reply in a queue group, discoverable
with `$SRV.PING|INFO|STATS`), and a JetStream work queue for jobs that must not be lost.

    pip install 'boxoffice-worker[nats]'
    BOXOFFICE_DATABASE_URL=postgres://… boxoffice-worker-nats --server nats://10.0.0.5:4222 --workers 2 --jobs

Needs nats-py (the `nats` extra). The modules, one concept each: `names` (subjects, streams, the service's name),
`connection` (nats-py's connect options from flags and the environment), `workers` (long-lived workers restarted
with backoff), `outcome` (an answer or an error as a reply and as a stored outcome), `service` (the request/reply
endpoints and the service protocol), `lines` (a submitted line as a job, as `pipe` reads it), `jobs` (the work queue:
submit, consume, collect), `cli` (the `boxoffice-worker-nats` command).
"""
