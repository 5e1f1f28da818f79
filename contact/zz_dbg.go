package contact

import "fmt"

var zzOn bool

func zzDbg(f string, a ...any) {
	if zzOn {
		fmt.Printf("ZZ "+f+"\n", a...)
	}
}
