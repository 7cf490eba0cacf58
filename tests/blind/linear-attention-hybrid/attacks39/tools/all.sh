A=/work/main/tests/blind/linear-attention-hybrid/attacks39
for T in 256 1024; do for c in base control-resum-history attack-pipe-ring-history attack-vault-child-resum attack-hugetlb-history attack-sampled-resum-hugetlb; do
  m=$(OMP_NUM_THREADS=1 timeout 600 /work/main/.venv/bin/python cg.py measure.py $A/$c $T /tmp/ha39/o_${c}_$T.npz)
  k=$(/work/main/.venv/bin/python check.py /tmp/ha39/o_${c}_$T.npz $T 2>&1 | tail -1)
  echo "$T $c $m $k"
done; done
