#!/bin/bash
# Interleaved A/B, both servers up at once on the same database; bursts alternate A/B (order flipped each round).
# Usage: A_DIR=/path/to/build-A bench/ai-serving-ab.sh sqlite:/path/bench.db KEY TEAM_ID [rounds] [seconds]
: "${A_DIR:?A_DIR: a build of the code without the change (bin/, dist/, node_modules)}"; B_DIR=${B_DIR:-$PWD}
DB=$1; KEY=$2; TEAM=$3; ROUNDS=${4:-12}; DUR=${5:-3}
DEAL=$(sqlite3 ${DB#sqlite:} "select id from deals where team_id='$TEAM' and status='ativo' and ai_summary is not null limit 1 offset 777")
AC=$B_DIR/node_modules/.bin/autocannon
start() { (cd $1 && DATABASE_URL=$DB PORT=$2 HOST=127.0.0.1 NODE_ENV=production LOG_LEVEL=info RATE_LIMITS=off WEBHOOK_WORKER=off SCHEDULER=off exec node bin/autosales.js serve >/dev/null 2>&1) & echo $!; }
PA=$(start $A_DIR 4201); sleep 3; PB=$(start $B_DIR 4202)
for p in 4201 4202; do for i in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:$p/health && break; sleep 0.3; done; done
echo "deal $DEAL"
for r in $(seq 1 $ROUNDS); do
  order="A B"; [ $((r % 2)) = 0 ] && order="B A"
  for sc in byid list; do
    path=/api/v1/deals/$DEAL; [ $sc = list ] && path=/api/v1/deals
    for side in $order; do
      port=4201; [ $side = B ] && port=4202
      $AC -c 10 -d 1 -H "authorization=Bearer $KEY" http://127.0.0.1:$port$path >/dev/null 2>&1
      out=$($AC -c 10 -d $DUR -j -H "authorization=Bearer $KEY" http://127.0.0.1:$port$path 2>/dev/null)
      echo "$r $side $sc $(echo "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.requests.average, j.latency.p50, j.latency.p99, j.non2xx, j.errors)})')"
    done
  done
done
kill $PA $PB
