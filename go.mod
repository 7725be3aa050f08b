module github.com/shedsim/shedsim

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1
	honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
