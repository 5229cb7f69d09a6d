// The Node half of clients_bench.py: ROUNDS rounds of IN_FLIGHT cached boxoffice.daily calls at once; prints the rate.
import { Worker } from "../clients/node/index.js";

const [binary, rounds, inFlight] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const worker = new Worker({ binary, env: { KOBIS_API_KEY: "", KAKAO_REST_API_KEY: "" } });
await worker.daily({ date: "2022-01-05" });
const begin = process.hrtime.bigint();
for (let round = 0; round < rounds; round++) {
  await Promise.all(Array.from({ length: inFlight }, () => worker.daily({ date: "2022-01-05" })));
}
const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
await worker.close();
console.log(JSON.stringify({ rate: (rounds * inFlight) / seconds }));
