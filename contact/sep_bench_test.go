package contact

import "testing"

func BenchmarkQuerySeparatedOnly(b *testing.B) {
	all := paperPairs(2000, 1)
	sv := NewSolver(DefaultOptions())
	var pairs [][2]struct{}
	_ = pairs
	idx := []int{}
	for i := range all {
		if sv.Query(&all[i][0], &all[i][1]).Distance > 0 {
			idx = append(idx, i)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &all[idx[i%len(idx)]]
		sv.Query(&p[0], &p[1])
	}
}
